/** The Block Kit renderer on worst-case content: every Slack limit holds, the pager survives, text is escaped. */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import { decodeSlackText, escapeMrkdwn } from '../../../src/adapters/slack/mrkdwn.js';
import {
  blocksTextSize,
  MAX_MESSAGES,
  MESSAGE_TEXT_BUDGET,
  renderSlackMessages,
  type SlackMessage,
} from '../../../src/adapters/slack/render.js';
import {
  button,
  buttons,
  card,
  creatorCard,
  pager,
  REPLY_NODE_TYPES,
  type Reply,
  reply,
  SELECT_OPTIONS_MAX,
  select,
  text,
} from '../../../src/core/ui/index.js';
import { CARDS_PER_PAGE } from '../../../src/core/ui/limits.js';
import {
  actionIdsOf,
  atNeutralLimits,
  HOSTILE,
  HOSTILE_PROFILE,
  hostileButtons,
  LONG_HOSTILE,
  NOW,
  nullNodes,
  worstCaseCards,
  worstCaseNodes,
  worstCaseReply,
} from '../../core/ui/fixtures.js';

type Obj = Record<string, unknown>;

/** Asserts every limit of Slack on the messages, walking each block and element. */
function assertLimits(messages: readonly SlackMessage[]): void {
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.length).toBeLessThanOrEqual(MAX_MESSAGES);
  for (const message of messages) {
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.text.length).toBeLessThanOrEqual(SLACK.MESSAGE_TEXT_MAX);
    expect(message.blocks.length).toBeLessThanOrEqual(SLACK.MESSAGE_BLOCKS_MAX);
    expect(blocksTextSize(message.blocks)).toBeLessThanOrEqual(MESSAGE_TEXT_BUDGET);
    assertTableLimits(message.blocks as unknown as Obj[]);
    for (const block of message.blocks as unknown as Obj[]) {
      if (block.type === 'section') {
        const sectionText = (block.text as Obj | undefined)?.text as string | undefined;
        expect((sectionText ?? '').length).toBeLessThanOrEqual(SLACK.SECTION_TEXT_MAX);
        const fields = (block.fields ?? []) as Obj[];
        expect(fields.length).toBeLessThanOrEqual(SLACK.SECTION_FIELDS_MAX);
        for (const field of fields)
          expect(String(field.text).length).toBeLessThanOrEqual(SLACK.SECTION_FIELD_TEXT_MAX);
        expect(sectionText !== undefined || fields.length > 0).toBe(true);
      }
      if (block.type === 'context') {
        for (const element of block.elements as Obj[])
          expect(String(element.text).length).toBeLessThanOrEqual(3000);
      }
      if (block.type === 'actions') {
        const elements = block.elements as Obj[];
        expect(elements.length).toBeGreaterThan(0);
        expect(elements.length).toBeLessThanOrEqual(SLACK.ACTIONS_ELEMENTS_MAX);
        for (const element of elements) {
          expect(String(element.action_id).length).toBeLessThanOrEqual(SLACK.ACTION_ID_MAX);
          if (element.type === 'button') {
            expect(((element.text as Obj).text as string).length).toBeLessThanOrEqual(SLACK.BUTTON_TEXT_MAX);
            expect(String(element.value).length).toBeLessThanOrEqual(SLACK.BUTTON_VALUE_MAX);
          }
          if (element.type === 'static_select') {
            const options = element.options as Obj[];
            expect(options.length).toBeLessThanOrEqual(SLACK.SELECT_OPTIONS_MAX);
            expect(((element.placeholder as Obj).text as string).length).toBeLessThanOrEqual(
              SLACK.PLACEHOLDER_MAX,
            );
            for (const option of options) {
              expect(((option.text as Obj).text as string).length).toBeLessThanOrEqual(SLACK.OPTION_TEXT_MAX);
              expect(String(option.value).length).toBeLessThanOrEqual(SLACK.OPTION_VALUE_MAX);
            }
          }
        }
        const ids = elements.map((e) => e.action_id);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  }
}

/** Slack's data table rules: a header and 1-100 rows of one length, 1-20 columns, no empty cell, 10,000 characters. */
function assertTableLimits(blocks: readonly Obj[]): void {
  let size = 0;
  for (const block of blocks.filter((b) => b.type === 'data_table')) {
    const rows = block.rows as Obj[][];
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeLessThanOrEqual(SLACK.DATA_TABLE_ROWS_MAX + 1);
    const width = rows[0]?.length ?? 0;
    expect(width).toBeGreaterThanOrEqual(1);
    expect(width).toBeLessThanOrEqual(SLACK.DATA_TABLE_COLUMNS_MAX);
    for (const row of rows) {
      expect(row).toHaveLength(width);
      for (const cell of row) expect(String(cell.text).length).toBeGreaterThan(0);
      size += row.reduce((n, cell) => n + String(cell.text).length, 0);
    }
    expect(block.page_size).toBeLessThanOrEqual(100);
  }
  expect(size).toBeLessThanOrEqual(SLACK.DATA_TABLE_TEXT_MAX);
}

const allBlocks = (messages: readonly SlackMessage[]) =>
  messages.flatMap((m) => m.blocks as unknown as Obj[]);
const buttonIds = (messages: readonly SlackMessage[]) =>
  allBlocks(messages)
    .filter((b) => b.type === 'actions')
    .flatMap((b) => (b.elements as Obj[]).map((e) => String(e.action_id)));

const fullPage = (): Reply =>
  reply(
    [
      text('Creators matching ', HOSTILE),
      ...Array.from({ length: CARDS_PER_PAGE }, (_, i) =>
        creatorCard(HOSTILE_PROFILE, {
          fetchedAt: NOW - 5_000,
          now: NOW,
          actions: [button('Add to list', `creators.add:${i}`), button('Details', `creators.details:${i}`)],
          revealEmail: true,
        }),
      ),
      pager({
        page: 2,
        totalPages: 40,
        prevActionId: 'creators.page:prev',
        nextActionId: 'creators.page:next',
      }),
    ],
    { visibility: 'channel' },
  );

describe('renderSlackMessages', () => {
  it('renders every node type on worst-case content within every limit', () => {
    for (const type of REPLY_NODE_TYPES) {
      const node = worstCaseNodes()[type];
      assertLimits(renderSlackMessages(reply([node])));
    }
    for (const built of Object.values(worstCaseCards())) assertLimits(renderSlackMessages(reply([built])));
    assertLimits(renderSlackMessages(worstCaseReply()));
    assertLimits(renderSlackMessages(reply(nullNodes())));
  });

  it('renders replies built at every neutral limit of core within Slack limits, no token or label cut', () => {
    for (const built of Object.values(atNeutralLimits())) {
      const messages = renderSlackMessages(built);
      assertLimits(messages);
      expect(JSON.stringify(messages)).not.toContain('not shown');
      expect(buttonIds(messages).sort()).toEqual(actionIdsOf(built).sort());
      const labels = allBlocks(messages)
        .filter((b) => b.type === 'actions')
        .flatMap((b) => (b.elements as Obj[]).filter((e) => e.type === 'button'))
        .map((e) => (e.text as Obj).text);
      const modelLabels = built.nodes.flatMap((n) =>
        n.type === 'buttons' ? n.buttons : n.type === 'card' ? n.actions : [],
      );
      for (const b of modelLabels) expect(labels).toContain(b.label);
    }
    expect(renderSlackMessages(atNeutralLimits().page)).toHaveLength(1);
  });

  it('keeps a page of CARDS_PER_PAGE hostile creator cards in one message with avatar, fields, data age and buttons', () => {
    const messages = renderSlackMessages(fullPage());
    assertLimits(messages);
    expect(messages).toHaveLength(1);
    const cards = allBlocks(messages).filter((b) => b.type === 'section' && b.accessory !== undefined);
    expect(cards).toHaveLength(CARDS_PER_PAGE);
    const [firstCard] = cards as [Obj];
    expect((firstCard.accessory as Obj).type).toBe('image');
    expect((firstCard.fields as Obj[]).length).toBeGreaterThanOrEqual(8);
    expect(JSON.stringify(messages)).toContain('Data: ');
    expect(buttonIds(messages)).toEqual([
      ...Array.from({ length: CARDS_PER_PAGE }, (_, i) => [
        `creators.add:${i}`,
        `creators.details:${i}`,
      ]).flat(),
      'creators.page:prev',
      'creators.page:next',
    ]);
  });

  it('lays out a card: linked title, subtitle and body beside the image, fields, footnote, buttons', () => {
    const [message] = renderSlackMessages(
      reply([
        card({
          title: '@jane *star*',
          link: { url: 'https://www.tiktok.com/@jane', label: 'Profile' },
          subtitle: 'TikTok',
          body: ['Caption <!here>', 'Hook: wait'],
          image: { url: 'https://cdn.example.com/jane.jpg', alt: '@jane' },
          fields: Array.from({ length: 10 }, (_, i) => ({ label: `F${i}`, value: i, inline: true })),
          footnote: 'Data: 2 days old',
          actions: [button('Add to list', 'creators.add:1', { style: 'primary' })],
        }),
      ]),
    );
    expect(message?.blocks).toEqual([
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `*<https://www.tiktok.com/@jane|@jane ${escapeMrkdwn('*star*')}>*\nTikTok\nCaption &lt;!here&gt;\nHook: wait`,
          verbatim: true,
        },
        fields: Array.from({ length: 10 }, (_, i) => ({
          type: 'mrkdwn',
          text: `*F${i}*\n${i}`,
          verbatim: true,
        })),
        accessory: { type: 'image', image_url: 'https://cdn.example.com/jane.jpg', alt_text: '@jane' },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Data: 2 days old', verbatim: true }] },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Add to list', emoji: true },
            action_id: 'creators.add:1',
            value: 'creators.add:1',
            style: 'primary',
          },
        ],
      },
    ]);
    // A bare card is a bold title only.
    expect(renderSlackMessages(reply([card({ title: 'Spring' })]))[0]?.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '*Spring*', verbatim: true } },
    ]);
  });

  it('leaves out an image whose URL is longer than Slack takes, keeping the card', () => {
    const built = card({ title: 'x', image: { url: 'https://cdn.example.com/a.png', alt: 'a' } });
    const long = { ...built, image: { url: `https://cdn.example.com/${'z'.repeat(3000)}`, alt: 'a' } };
    const [section] = renderSlackMessages(reply([long]))[0]?.blocks ?? [];
    expect(section).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*x*', verbatim: true } });
    const [kept] = allBlocks(renderSlackMessages(reply([built])));
    expect(kept?.accessory).toEqual({
      type: 'image',
      image_url: 'https://cdn.example.com/a.png',
      alt_text: 'a',
    });
  });

  it('never lets user text become mentions, links or formatting', () => {
    const rendered = JSON.stringify(
      renderSlackMessages(reply([text('<!channel> <@U1|x> *b* <https://e|l>')])),
    );
    expect(rendered).not.toContain('<!channel>');
    expect(rendered).not.toContain('<@U1');
    expect(rendered).toContain('&lt;!channel&gt;');
    expect(rendered).not.toMatch(/"\*b\*/);
    expect(escapeMrkdwn('a & b')).toBe('a &amp; b');
  });

  it('splits help-sized text into several messages and cuts the rest with a marker, keeping the pager', () => {
    const huge = reply([
      ...Array.from({ length: 60 }, () => text(LONG_HOSTILE)),
      buttons(...hostileButtons('x')),
      pager({ page: 1, totalPages: 3, prevActionId: null, nextActionId: 'p.next' }),
    ]);
    const messages = renderSlackMessages(huge);
    assertLimits(messages);
    expect(messages).toHaveLength(MAX_MESSAGES);
    const last = JSON.stringify(messages[MAX_MESSAGES - 1]);
    expect(last).toContain('not shown');
    expect(last).toContain('p.next');
    const help = renderSlackMessages(reply([text('x'.repeat(8500))]));
    assertLimits(help);
    expect(help.flatMap((m) => m.blocks)).toHaveLength(3);
  });

  it('packs many button rows into actions blocks of at most 25 and caps a select at 100 options', () => {
    const many = reply(
      Array.from({ length: 12 }, (_, row) =>
        buttons(...Array.from({ length: 5 }, (_, i) => button(`B${row}.${i}`, `k.${row}.${i}`))),
      ),
    );
    const messages = renderSlackMessages(many);
    assertLimits(messages);
    expect(allBlocks(messages).filter((b) => b.type === 'actions')).toHaveLength(3);
    const wide = {
      ...select({ placeholder: 'List', actionId: 'a.b', options: [{ label: 'x', value: 'x' }] }),
      options: Array.from({ length: 150 }, (_, i) => ({
        label: `List ${i} ${'n'.repeat(90)}`,
        value: `id${i}`,
      })),
    };
    assertLimits(renderSlackMessages(reply([wide])));
  });
});

describe('a full select', () => {
  const full = (typed: boolean) =>
    select({
      placeholder: 'Choose a list',
      actionId: 'lists.pick:abc',
      options: Array.from({ length: SELECT_OPTIONS_MAX }, (_, i) => ({ label: `List ${i}`, value: `l${i}` })),
      ...(typed ? { typed: true } : {}),
    });
  const typeButtons = (shown: Reply) =>
    JSON.stringify(renderSlackMessages(shown)).match(/"action_id":"scout\.type:/g) ?? [];

  it('offers to type a value when its action takes one, whatever its command', () => {
    expect(typeButtons(reply([full(true)]))).toHaveLength(1);
    expect(typeButtons(reply([full(false)]))).toHaveLength(0);
  });
});

describe('decodeSlackText', () => {
  it('reverses Slack markup in command text', () => {
    expect(
      decodeSlackText(
        'creators niche:&quot;a&quot; &lt;x&gt; &amp; <@U12|ana> <#C1|general> <https://x.io|x.io> <!here>',
      ),
    ).toBe('creators niche:&quot;a&quot; <x> & <@U12> #general https://x.io @here');
  });

  it('keeps the user id of a mention, with or without the name Slack adds when it escapes', () => {
    expect(decodeSlackText('admins add <@U123|ana>')).toBe('admins add <@U123>');
    expect(decodeSlackText('credits cap <@W42> 5')).toBe('credits cap <@W42> 5');
  });
});
