/**
 * Cards side by side, as Slack's carousel: each card becomes a card block, scrolled sideways, ten to a carousel.
 * A card block shows the card's picture as its hero image (an absolute http(s) URL only, else none), its title (a
 * link to its page when both fit Slack's 150 characters), its subtitle, a body of its first line of text and its
 * facts in the card's order ("Followers 1.2M · Engagement 3.4% · Avg views 98K", whole facts while they fit
 * Slack's 200 characters) and its buttons. Text is cut to those limits, never left out for being long.
 * https://docs.slack.dev/reference/block-kit/blocks/carousel-block
 * https://docs.slack.dev/reference/block-kit/blocks/card-block
 */
import type { types } from '@slack/bolt';
import { type CardNode, MISSING, type ReplyNode, singleLine } from '../../core/ui/index.js';
import { type Block, literal, slackButton } from './blocks.js';
import { SLACK } from './limits.js';
import { clip, escapeMrkdwn, linkUrl } from './mrkdwn.js';

/** Cards in a row that become a carousel; a lone card keeps the section layout, which shows all its facts. */
export const CAROUSEL_RUN_MIN = 2;

/** Between two facts of a card's body. */
const FACT_JOIN = ' · ';

/** The longest first line of text a card's body keeps, so its facts follow it. */
const BODY_LINE_MAX = 100;

/** The shortest title a linked title may be cut to; a longer link leaves the title plain. */
const LINKED_TITLE_MIN = 40;

/** Whether a node is a card that reads well in a carousel: one with a picture or buttons. */
export function isCarouselCard(node: ReplyNode): node is CardNode {
  return node.type === 'card' && (node.image !== null || node.actions.some((b) => b.disabled !== true));
}

const mrkdwnObject = (text: string): types.MrkdwnElement => ({ type: 'mrkdwn', text, verbatim: true });

/** The title: a link to the card's page when the link and enough of the title fit, else plain text. */
function titleText(card: CardNode): string {
  const max = SLACK.CARD_TITLE_MAX;
  if (card.link !== null) {
    const url = linkUrl(card.link.url);
    const room = max - url.length - 3;
    if (room >= LINKED_TITLE_MIN) return `<${url}|${literal(card.title, room)}>`;
  }
  return literal(card.title, max);
}

/**
 * The body: the card's first line of text, then as many of its facts, in order, as fit; a fact with no value is
 * left out, and a first fact too long for the body alone is cut.
 */
export function bodyText(card: CardNode): string {
  const max = SLACK.CARD_BODY_MAX;
  const [first] = card.body;
  const lead = first === undefined ? '' : literal(first, BODY_LINE_MAX);
  const room = max - (lead === '' ? 0 : lead.length + 1);
  const facts: string[] = [];
  let size = 0;
  for (const field of card.fields) {
    const value = singleLine(field.value);
    if (value === '' || value === MISSING) continue;
    const fact = escapeMrkdwn(singleLine(`${field.label} ${value}`));
    const added = (facts.length === 0 ? 0 : FACT_JOIN.length) + fact.length;
    if (size + added > room) {
      if (facts.length === 0) facts.push(literal(`${field.label} ${value}`, room));
      break;
    }
    facts.push(fact);
    size += added;
  }
  return [lead, facts.join(FACT_JOIN)].filter((part) => part !== '').join('\n');
}

/** The card's picture as a hero image: an absolute http(s) URL Slack takes, or none. */
function heroImage(card: CardNode): types.ImageElement | null {
  const image = card.image;
  if (image === null || !/^https?:\/\/\S+$/i.test(image.url) || image.url.length > SLACK.IMAGE_URL_MAX)
    return null;
  return { type: 'image', image_url: image.url, alt_text: clip(image.alt || 'Picture', 2000) };
}

/** The card block of a card, within Slack's limits on each of its parts. */
export function cardBlock(card: CardNode): types.CardBlock {
  const title = titleText(card);
  const subtitle = card.subtitle === null ? '' : literal(card.subtitle, SLACK.CARD_SUBTITLE_MAX);
  const body = bodyText(card);
  const hero = heroImage(card);
  const actions = card.actions.map(slackButton).filter((b): b is types.Button => b !== null);
  return {
    type: 'card',
    ...(hero === null ? {} : { hero_image: hero }),
    // A card block needs one of a picture, a title, a body or buttons: an untitled card is named by a dash.
    title: mrkdwnObject(title === '' ? MISSING : title),
    ...(subtitle === '' ? {} : { subtitle: mrkdwnObject(subtitle) }),
    ...(body === '' ? {} : { body: mrkdwnObject(body) }),
    ...(actions.length === 0 ? {} : { actions }),
  };
}

/** Carousel blocks for a run of cards, at most CAROUSEL_CARDS_MAX cards each. */
export function carouselBlocks(cards: readonly CardNode[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < cards.length; i += SLACK.CAROUSEL_CARDS_MAX) {
    blocks.push({ type: 'carousel', elements: cards.slice(i, i + SLACK.CAROUSEL_CARDS_MAX).map(cardBlock) });
  }
  return blocks;
}
