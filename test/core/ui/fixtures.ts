/**
 * Worst-case reply content for renderer tests (text, Block Kit, embeds): every part present, long hostile
 * strings, markup characters, emoji and surrogate pairs, and the all-null variants.
 */
import { contactRow, listRow } from '../../../src/commands/lists/crm-cards.js';
import {
  bold,
  button,
  buttons,
  type CardNode,
  card,
  code,
  codeBlock,
  creatorCard,
  divider,
  type Field,
  type FieldInput,
  fields,
  image,
  italic,
  jsonBlock,
  link,
  mention,
  notice,
  numberCell,
  pager,
  type Reply,
  type ReplyNode,
  type ReplyNodeType,
  reply,
  select,
  type TableNode,
  table,
  text,
  viralPostCard,
} from '../../../src/core/ui/index.js';
import {
  ACTION_ID_MAX,
  BUTTON_LABEL_MAX,
  BUTTONS_PER_ROW_MAX,
  CARD_FIELDS_MAX,
  CARD_LINE_MAX,
  CARD_SHORT_TEXT_MAX,
  CARD_TITLE_MAX,
  CARDS_PER_PAGE_MAX,
  CODE_BLOCK_MAX,
  FIELD_LABEL_MAX,
  FIELD_VALUE_MAX,
  FIELDS_MAX,
  OPTION_DESCRIPTION_MAX,
  OPTION_LABEL_MAX,
  OPTION_VALUE_MAX,
  PLACEHOLDER_MAX,
  SELECT_OPTIONS_MAX,
  TABLE_COLUMNS_MAX,
  TABLE_ROWS_MAX,
  TEXT_MAX,
} from '../../../src/core/ui/limits.js';

/**
 * Code points that must never reach output, as "U+001B" strings: C0 controls (newline allowed unless
 * `singleLine`), carriage return, DEL, C1 controls, bidi embeddings, overrides and isolates, line separators.
 */
export function unsafeChars(text: string, singleLine = false): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const unsafe =
      (c < 0x20 && (singleLine || c !== 0x0a)) ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0x2028 ||
      c === 0x2029;
    if (unsafe) found.push(`U+${c.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return found;
}

/** Fixed clock of the fixtures. */
export const NOW = Date.parse('2026-03-10T12:00:00.000Z');

/** Markup of every platform, mentions, a bidi override, terminal escapes, a NUL and line breaks. */
export const HOSTILE =
  '*bold* _it_ ~st~ `code` ```fence``` <@U123|x> <!channel> @everyone ||spoiler|| ' +
  '[l](https://evil.example)\r\n' +
  '\u202Eevil\u202C \u001b[2J\u001b[31mred\u0000\u0007 tab\there\u2028sep';

/** Emoji of every shape: a surrogate pair, a ZWJ family, a flag, a skin tone, a combining accent. */
export const EMOJI = '😀👨‍👩‍👧‍👦🇺🇸👍🏽é';

/** A long hostile string: markup, emoji and newlines repeated well past every platform limit. */
export const LONG_HOSTILE = `${HOSTILE} ${EMOJI}\n`.repeat(300);

/** A token of exactly the maximum length. */
export const LONGEST_TOKEN = `x.${'k'.repeat(98)}`;

/** A creator profile with every member present and hostile. */
export const HOSTILE_PROFILE = {
  user_id: `tiktok_${'9'.repeat(200)}`,
  handle: `@${LONG_HOSTILE}`,
  nickname: LONG_HOSTILE,
  source: 'tiktok',
  followers: 1_250_000,
  engagement_rate: 0.034,
  avg_views: 987_654,
  avg_likes: 12_345,
  country: LONG_HOSTILE,
  language: LONG_HOSTILE,
  main_category: LONG_HOSTILE,
  best_promotion_niches: Array.from({ length: 40 }, (_, i) => `${i} ${LONG_HOSTILE}`),
  email: `${'a'.repeat(300)}@example.com`,
  avatar_url: `https://cdn.example.com/${EMOJI}.png?q=${'z'.repeat(100)}`,
};

/** A creator profile where everything is null. */
export const NULL_PROFILE = {
  user_id: null,
  handle: null,
  nickname: null,
  source: null,
  followers: null,
  engagement_rate: null,
  avg_views: null,
  avg_likes: null,
  country: null,
  language: null,
  main_category: null,
  best_promotion_niches: null,
  email: null,
  avatar_url: null,
};

/** A viral post with every member present and hostile. */
export const HOSTILE_POST = {
  id: LONG_HOSTILE,
  videoUrl: 'https://video.example.com/v/1.mp4',
  thumbnailUrl: 'https://video.example.com/t/1.jpg',
  caption: LONG_HOSTILE,
  views: 41_234_567,
  likes: 2_345_678,
  comments: 34_567,
  shares: 4_567,
  viralityScore: 0.91,
  category: LONG_HOSTILE,
  country: LONG_HOSTILE,
  musicTitle: LONG_HOSTILE,
  creatorUsername: LONG_HOSTILE,
  hook: LONG_HOSTILE,
  createdAt: '2026-03-01T10:00:00Z',
};

/** Full-width buttons with hostile labels and the longest tokens. */
export function hostileButtons(prefix: string, count = 5): ReturnType<typeof button>[] {
  return Array.from({ length: count }, (_, i) =>
    button(`${i} ${LONG_HOSTILE}`, `${prefix}${i}.${'k'.repeat(90)}`.slice(0, 100), {
      style: i === 0 ? 'primary' : i === 1 ? 'danger' : 'secondary',
      disabled: i === 4,
    }),
  );
}

/** Mentions of every platform's users and of ids that try to break out of one (the last ones must stay text). */
export const MENTIONS = [
  mention('U0123ABCD'),
  mention('W0123ABCD'),
  mention('123456789012345678'),
  mention('U1>|<!channel>'),
  mention('@everyone'),
  mention('<@&123456789012345678>'),
  mention(HOSTILE),
];

/** Field values by label. */
export function byLabel(fields: readonly Field[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.label, f.value]));
}

/** The value, or an error when a builder refused it. */
export function present<T>(value: T | null): T {
  if (value === null) throw new Error('expected a value');
  return value;
}

/** One worst-case node of every type. */
export function worstCaseNodes(): Record<ReplyNodeType, ReplyNode> {
  return {
    text: text(
      LONG_HOSTILE,
      bold(LONG_HOSTILE),
      italic(EMOJI),
      code(HOSTILE),
      link(HOSTILE, 'https://example.com/a b'),
      ...MENTIONS,
    ),
    fields: fields(
      Array.from({ length: 10 }, (_, i) => ({
        label: LONG_HOSTILE,
        value: i % 2 ? LONG_HOSTILE : i,
        inline: i < 6,
      })),
    ),
    card: card({
      title: LONG_HOSTILE,
      link: { url: 'https://example.com/a b?q=<!channel>', label: LONG_HOSTILE },
      subtitle: LONG_HOSTILE,
      body: [LONG_HOSTILE, HOSTILE, LONG_HOSTILE],
      image: { url: HOSTILE_PROFILE.avatar_url, alt: LONG_HOSTILE },
      fields: Array.from({ length: 10 }, (_, i) => ({
        label: LONG_HOSTILE,
        value: i % 2 ? LONG_HOSTILE : i,
        inline: i < 6,
      })),
      footnote: LONG_HOSTILE,
      actions: hostileButtons('g'),
    }),
    notice: notice('error', [LONG_HOSTILE, code(HOSTILE), ...MENTIONS], { reference: LONG_HOSTILE }),
    buttons: buttons(...hostileButtons('b')),
    select: select({
      placeholder: LONG_HOSTILE,
      actionId: LONGEST_TOKEN,
      options: Array.from({ length: 25 }, (_, i) => ({
        label: `${i} ${LONG_HOSTILE}`,
        value: `${i}`.padEnd(100, 'v'),
        description: LONG_HOSTILE,
      })),
      selected: '3'.padEnd(100, 'v'),
    }),
    pager: pager({
      page: 999,
      totalPages: 1000,
      prevActionId: 'p.prev',
      nextActionId: 'p.next',
      nextCost: LONG_HOSTILE,
      label: LONG_HOSTILE,
    }),
    divider: divider(),
    image: present(image('https://img.example.com/big.png', LONG_HOSTILE, { title: LONG_HOSTILE })),
    'code-block': codeBlock(LONG_HOSTILE, { language: 'text', title: LONG_HOSTILE }),
    table: worstCaseTable(),
  };
}

/** A table at every limit: the most rows and columns, each cell the longest hostile, emoji or right-to-left text. */
export function worstCaseTable(): TableNode {
  const texts = [LONG_HOSTILE, `${EMOJI}`.repeat(40), 'مرحبا بالعالم '.repeat(10), ''];
  return table({
    caption: LONG_HOSTILE,
    columns: Array.from({ length: TABLE_COLUMNS_MAX }, (_, i) => ({
      label: LONG_HOSTILE,
      numeric: i % 2 === 1,
    })),
    rows: Array.from({ length: TABLE_ROWS_MAX + 5 }, (_, r) =>
      Array.from({ length: TABLE_COLUMNS_MAX }, (_, c) =>
        c % 2 === 1
          ? numberCell(`${r * c}`.padStart(60, '9'), r * c)
          : (texts[(r + c) % texts.length] as string),
      ),
    ),
  });
}

/** The worst case of each card Scout builds: a creator (email revealed), a viral post, a CRM list and contact. */
export function worstCaseCards(): Record<'creator' | 'viral' | 'list' | 'contact', CardNode> {
  return {
    creator: creatorCard(HOSTILE_PROFILE, {
      fetchedAt: NOW - 2 * 86_400_000 - 5_000,
      now: NOW,
      actions: hostileButtons('a'),
      revealEmail: true,
    }),
    viral: viralPostCard(HOSTILE_POST, { actions: hostileButtons('v') }),
    list: listRow(
      {
        id: LONG_HOSTILE,
        name: LONG_HOSTILE,
        description: LONG_HOSTILE,
        budget: 1_234_567.891,
        contact_count: 4321,
        to_outreach_count: 123,
        start_date: '2026-01-01T00:00:00',
        end_date: '2026-12-31T23:59:59',
      },
      { actions: hostileButtons('l') },
    ),
    contact: contactRow(
      {
        id: LONG_HOSTILE,
        list_id: LONG_HOSTILE,
        user_id: LONG_HOSTILE,
        status: 'negotiating',
        contact_email: `${'b'.repeat(300)}@example.com`,
        handle: LONG_HOSTILE,
        proposed_rate: 1500.5,
        agreed_rate: 1250,
        content_deliverables: LONG_HOSTILE,
        notes: LONG_HOSTILE,
        last_contact_date: '2026-03-09T08:00:00',
      },
      { actions: hostileButtons('c') },
    ),
  };
}

/** A reply holding every worst-case node and card plus a hostile JSON block. */
export function worstCaseReply(): Reply {
  return reply(
    [
      ...Object.values(worstCaseNodes()),
      ...Object.values(worstCaseCards()),
      jsonBlock({
        data: [{ title: LONG_HOSTILE, rank: 1 }],
        deep: { a: { b: { c: { d: { e: { f: {} } } } } } },
      }),
    ],
    { visibility: 'channel', replace: true },
  );
}

/** The all-null variants of the cards, and a pager with nothing either way. */
export function nullNodes(): ReplyNode[] {
  return [
    creatorCard(NULL_PROFILE, { fetchedAt: null, now: NOW }),
    creatorCard({}, { fetchedAt: undefined, now: NOW }),
    viralPostCard({}),
    listRow({}),
    contactRow({}),
    card({ title: '' }),
    pager({ page: 1, totalPages: null, prevActionId: null, nextActionId: null }),
  ];
}

/** `n` characters of plain text (no markup, nothing any platform escapes), beginning with `tag`. */
const sized = (tag: string, n: number) => `${tag}${'x'.repeat(n)}`.slice(0, n);

/** An action token of exactly ACTION_ID_MAX characters, beginning with `tag`. */
const longestToken = (tag: string) => `${tag}.`.padEnd(ACTION_ID_MAX, 'k');

/** BUTTONS_PER_ROW_MAX buttons with labels of BUTTON_LABEL_MAX and tokens of ACTION_ID_MAX characters. */
const buttonsAtLimits = (tag: string) =>
  Array.from({ length: BUTTONS_PER_ROW_MAX }, (_, i) =>
    button(sized(`${tag}${i}`, BUTTON_LABEL_MAX), longestToken(`${tag}${i}`)),
  );

/** `count` fields with labels of FIELD_LABEL_MAX and values of FIELD_VALUE_MAX characters. */
const fieldsAtLimits = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    label: sized(`l${i}`, FIELD_LABEL_MAX),
    value: sized(`v${i}`, FIELD_VALUE_MAX),
    inline: i % 2 === 0,
  }));

/** A card at the limits its builder enforces, holding `fields`. */
const cardAtLimits = (n: number, fields: readonly FieldInput[]) =>
  card({
    title: sized(`t${n}`, CARD_TITLE_MAX),
    link: { url: 'https://example.com/creator', label: sized(`k${n}`, 20) },
    subtitle: sized(`s${n}`, CARD_SHORT_TEXT_MAX),
    body: [sized(`b${n}`, CARD_LINE_MAX)],
    image: { url: 'https://img.example.com/a.png', alt: 'avatar' },
    fields,
    footnote: sized(`f${n}`, CARD_LINE_MAX),
    actions: buttonsAtLimits(`card${n}`),
  });

/**
 * Replies built at the neutral limits core/ui enforces, in plain text so nothing is escaped: `card`, one card
 * with CARD_FIELDS_MAX fields of FIELD_LABEL_MAX and FIELD_VALUE_MAX; `page`, CARDS_PER_PAGE_MAX cards at their
 * limits within CARD_TEXT_BUDGET (short facts) and a pager; `nodes`, a text node of TEXT_MAX, a fields node of
 * FIELDS_MAX fields, a row of buttons, a select of SELECT_OPTIONS_MAX options and a code block of CODE_BLOCK_MAX.
 * Buttons have labels of BUTTON_LABEL_MAX and, like every token, ACTION_ID_MAX characters. A renderer must keep
 * each within its platform's limits, whole: no part cut, no token shortened.
 */
export function atNeutralLimits(): Record<'card' | 'page' | 'nodes', Reply> {
  const shortFacts = Array.from({ length: CARD_FIELDS_MAX }, (_, i) => ({
    label: `l${i}`,
    value: sized(`v${i}`, 12),
  }));
  const page = reply([
    ...Array.from({ length: CARDS_PER_PAGE_MAX }, (_, n) => cardAtLimits(n, shortFacts)),
    pager({ page: 2, totalPages: 9, prevActionId: longestToken('prev'), nextActionId: longestToken('next') }),
  ]);
  const nodes = reply([
    text(sized('text', TEXT_MAX)),
    fields(fieldsAtLimits(FIELDS_MAX)),
    buttons(...buttonsAtLimits('row')),
    select({
      placeholder: sized('p', PLACEHOLDER_MAX),
      actionId: longestToken('select'),
      options: Array.from({ length: SELECT_OPTIONS_MAX }, (_, i) => ({
        label: sized(`o${i}`, OPTION_LABEL_MAX),
        value: sized(`${i}.`, OPTION_VALUE_MAX),
        description: sized(`d${i}`, OPTION_DESCRIPTION_MAX),
      })),
    }),
    codeBlock(sized('code', CODE_BLOCK_MAX)),
  ]);
  return { card: reply([cardAtLimits(0, fieldsAtLimits(CARD_FIELDS_MAX))]), page, nodes };
}

/** Every action token of a reply's model: its buttons', selects' and pagers'. */
export function actionIdsOf(answer: Reply): string[] {
  return answer.nodes.flatMap((node) => {
    if (node.type === 'buttons') return node.buttons.map((b) => b.actionId);
    if (node.type === 'card') return node.actions.map((b) => b.actionId);
    if (node.type === 'select') return [node.actionId];
    if (node.type === 'pager') return [node.prevActionId, node.nextActionId].filter((id) => id !== null);
    return [];
  });
}
