/**
 * A card in a Components V2 message: its text (the title, linked to its page, the subtitle, the body lines, the
 * facts and the footnote as small text) within a budget of characters, in a section beside its picture as the
 * thumbnail; its buttons in a row under it, or gathered with those of the other cards into selects for the page.
 * https://docs.discord.com/developers/components/reference#section
 */
import { type APIComponentInContainer, type APIContainerComponent, ComponentType } from 'discord.js';
import { type Button, type CardNode, MISSING, singleLine, truncate } from '../../core/ui/index.js';
import { DISCORD } from './limits.js';
import { escapeLine, plainLine } from './markdown.js';
import { buttonComponent, buttonsSelect, type DiscordRow } from './render-components.js';

/** A card as laid out: its number among the reply's cards with buttons (null when alone), its text and run. */
export interface V2Card {
  readonly card: CardNode;
  readonly number: number | null;
  /** The card's markdown, within the budget it was given. */
  readonly text: string;
  /** Cards in a row share a run, and so a container. */
  readonly run: number;
}

/** How the buttons of a message's cards are laid out. */
export type CardButtons = 'inline' | 'by-label' | 'combined';

/** The accent of a container of cards, the color of card embeds. */
export const CARD_COLOR = 0x2b88d8;

const FACT_JOIN = ' · ';
/** A title takes at most this share of a card's budget, so its facts are shown too. */
const TITLE_SHARE = 0.4;
/** A link longer than this share of a card's budget leaves the title plain. */
const LINK_SHARE = 0.6;
/** The shortest piece of a body line worth showing when it must be cut. */
const LINE_MIN = 24;

// Parentheses and spaces would end a markdown link early.
const linkTarget = (url: string) => url.replace(/[()\s]/g, (c) => encodeURIComponent(c));

/** The card's title in bold, a link to its page when the link leaves room for the rest. */
function head(card: CardNode, number: number | null, budget: number): string {
  const max = Math.max(40, Math.min(DISCORD.EMBED_TITLE_MAX, Math.floor(budget * TITLE_SHARE)));
  const title = escapeLine(number === null ? card.title : `${number}. ${card.title}`, max) || MISSING;
  const target = card.link === null ? null : linkTarget(card.link.url);
  if (target === null || target.length > budget * LINK_SHARE) return `**${title}**`;
  return `**[${title}](${target})**`;
}

/** The card's facts, in its order: inline ones side by side, others on lines of their own; empty ones left out. */
function facts(card: CardNode): Array<{ text: string; inline: boolean }> {
  return card.fields
    .filter((field) => field.value.trim() !== '' && field.value.trim() !== MISSING)
    .map((field) => {
      const label = escapeLine(field.label, 60);
      const value = escapeLine(field.value, DISCORD.EMBED_FIELD_VALUE_MAX);
      return field.inline === true
        ? { text: `**${label}** ${value}`, inline: true }
        : { text: `**${label}**: ${value}`, inline: false };
    });
}

/** Facts as lines: inline ones side by side, each other one on a line of its own. */
function factLines(shown: ReadonlyArray<{ text: string; inline: boolean }>): string[] {
  const lines: string[] = [];
  let paragraph: string[] = [];
  for (const fact of shown) {
    if (fact.inline) {
      paragraph.push(fact.text);
      continue;
    }
    if (paragraph.length > 0) lines.push(paragraph.join(FACT_JOIN));
    paragraph = [];
    lines.push(fact.text);
  }
  if (paragraph.length > 0) lines.push(paragraph.join(FACT_JOIN));
  return lines;
}

/**
 * The markdown of a card within `budget` characters: the title and subtitle first, then whole facts while they
 * fit, then the body lines (the last one cut to the room left) and the footnote; shown in the card's order.
 */
export function cardMarkdown(card: CardNode, number: number | null, budget: number): string {
  const top = head(card, number, budget);
  const shown = {
    subtitle: [] as string[],
    body: [] as string[],
    facts: [] as Array<{ text: string; inline: boolean }>,
    footnote: [] as string[],
  };
  const text = () =>
    [top, ...shown.subtitle, ...shown.body, ...factLines(shown.facts), ...shown.footnote].join('\n');
  /** Keeps what `add` put in when it fits, and says whether it did. */
  const kept = (list: unknown[], add: () => void) => {
    add();
    if (text().length <= budget) return true;
    list.pop();
    return false;
  };
  if (card.subtitle !== null)
    kept(shown.subtitle, () => shown.subtitle.push(escapeLine(card.subtitle ?? '', 100)));
  for (const fact of facts(card)) if (!kept(shown.facts, () => shown.facts.push(fact))) break;
  for (const line of card.body) {
    const escaped = escapeLine(line, DISCORD.EMBED_DESCRIPTION_MAX);
    if (kept(shown.body, () => shown.body.push(escaped))) continue;
    const room = budget - text().length - 1;
    if (room > LINE_MIN) shown.body.push(truncate(escaped, room));
    break;
  }
  if (card.footnote !== null)
    kept(shown.footnote, () => shown.footnote.push(`-# ${escapeLine(card.footnote ?? '', 200)}`));
  return text();
}

/** Whether a picture can be a thumbnail: an absolute http(s) URL. */
const thumbnailUrl = (card: CardNode) =>
  card.image !== null && /^https?:\/\/\S+$/i.test(card.image.url) ? card.image.url : null;

/** The components of a card in a container: its section (or text alone) and, `inline`, the row of its buttons. */
export function cardComponents(
  shown: V2Card,
  options: { thumbnails: boolean; inline: boolean },
): APIComponentInContainer[] {
  const { card } = shown;
  const text = { type: ComponentType.TextDisplay as const, content: shown.text };
  const url = options.thumbnails ? thumbnailUrl(card) : null;
  const alt = card.image === null ? '' : plainLine(card.image.alt, 100);
  const main: APIComponentInContainer =
    url === null
      ? text
      : {
          type: ComponentType.Section,
          components: [text],
          accessory: {
            type: ComponentType.Thumbnail,
            media: { url },
            ...(alt === '' ? {} : { description: alt }),
          },
        };
  const buttons = card.actions.slice(0, DISCORD.ROW_BUTTONS_MAX).map(buttonComponent);
  if (!options.inline || buttons.length === 0) return [main];
  return [main, { type: ComponentType.ActionRow, components: buttons }];
}

/** Containers for a run of cards: each card with its row, at most CONTAINER_CHILDREN_MAX children a container. */
export function cardContainers(
  cards: readonly V2Card[],
  options: { thumbnails: boolean; inline: boolean },
): APIContainerComponent[] {
  const containers: APIComponentInContainer[][] = [[]];
  for (const shown of cards) {
    const parts = cardComponents(shown, options);
    const current = containers.at(-1) as APIComponentInContainer[];
    if (current.length > 0 && current.length + parts.length > DISCORD.CONTAINER_CHILDREN_MAX)
      containers.push([]);
    (containers.at(-1) as APIComponentInContainer[]).push(...parts);
  }
  return containers
    .filter((children) => children.length > 0)
    .map((components) => ({ type: ComponentType.Container, accent_color: CARD_COLOR, components }));
}

interface Choice {
  label: string;
  token: string;
  description?: string;
}

/** Options in selects of at most SELECT_OPTIONS_MAX, each option's token once. */
function selectsOf(placeholder: string, choices: readonly Choice[], first: number): DiscordRow[] {
  const seen = new Set<string>();
  const unique = choices.filter((c) => !seen.has(c.token) && seen.add(c.token));
  const rows: DiscordRow[] = [];
  for (let i = 0; i < unique.length; i += DISCORD.SELECT_OPTIONS_MAX) {
    rows.push(
      buttonsSelect(first + rows.length, placeholder, unique.slice(i, i + DISCORD.SELECT_OPTIONS_MAX)),
    );
  }
  return rows;
}

/**
 * The buttons of a message's cards as selects, where a row per card would pass Discord's component count:
 * `by-label`, a select per label ("Details…": "1. @ana · Ana", …); `combined`, one select of every card's buttons
 * ("1. Details", with the card's title beneath), the message's other buttons (`loose`) after them. Choosing an
 * option presses that button.
 */
export function cardButtonSelects(
  cards: readonly V2Card[],
  mode: Exclude<CardButtons, 'inline'>,
  loose: readonly Button[],
): DiscordRow[] {
  const entries = cards.flatMap(({ card, number }) =>
    card.actions
      .filter((b) => b.disabled !== true)
      .map((b) => ({ number, title: singleLine(card.title), label: b.label, token: b.actionId })),
  );
  const numbered = (number: number | null, text: string) => (number === null ? text : `${number}. ${text}`);
  if (mode === 'combined') {
    const choices: Choice[] = [
      ...entries.map((e) => ({ label: numbered(e.number, e.label), token: e.token, description: e.title })),
      ...loose.filter((b) => b.disabled !== true).map((b) => ({ label: b.label, token: b.actionId })),
    ];
    return selectsOf('Actions…', choices, 0);
  }
  const labels = [...new Set(entries.map((e) => e.label))];
  const rows: DiscordRow[] = [];
  for (const label of labels) {
    const choices = entries
      .filter((e) => e.label === label)
      .map((e) => ({ label: numbered(e.number, e.title), token: e.token }));
    rows.push(...selectsOf(`${label}…`, choices, rows.length));
  }
  return rows;
}
