/** The Block Kit renderer on worst-case content: every Slack limit holds, the pager survives, text is escaped. */
import { describe, expect, it } from 'vitest';
import { decodeSlackText, escapeMrkdwn } from '../../../src/adapters/slack/mrkdwn.js';
import { MAX_MESSAGES, renderSlackMessages } from '../../../src/adapters/slack/render.js';
import {
  button,
  buttons,
  card,
  pager,
  REPLY_NODE_TYPES,
  type Reply,
  reply,
  SELECT_OPTIONS_MAX,
  select,
  text,
} from '../../../src/core/ui/index.js';
import {
  actionIdsOf,
  atNeutralLimits,
  hostileButtons,
  LONG_HOSTILE,
  nullNodes,
  worstCaseCards,
  worstCaseNodes,
  worstCaseReply,
} from '../../core/ui/fixtures.js';
import { blocksProblem } from '../../fakes/slack-blocks.js';
import { allBlocks, assertLimits, buttonIds, elementsOf, type Obj } from './block-limits.js';

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
      const labels = elementsOf(messages)
        .filter((e) => e.type === 'button')
        .map((e) => (e.text as Obj).text);
      const modelLabels = built.nodes.flatMap((n) =>
        n.type === 'buttons' ? n.buttons : n.type === 'card' ? n.actions : [],
      );
      for (const b of modelLabels) expect(labels).toContain(b.label);
    }
    expect(renderSlackMessages(atNeutralLimits().page)).toHaveLength(1);
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

  it('ends with the short line after the pager (the cost line), after the pager, even when split', () => {
    const page = (before: number) =>
      reply([
        ...Array.from({ length: before }, () => text(LONG_HOSTILE)),
        pager({ page: 1, totalPages: 3, prevActionId: null, nextActionId: 'p.next' }),
        text('5 credits · 2 cached, free'),
      ]);
    for (const size of [1, 60]) {
      const messages = renderSlackMessages(page(size));
      assertLimits(messages);
      const blocks = (messages.at(-1)?.blocks ?? []) as unknown as Obj[];
      expect(JSON.stringify(blocks.at(-1))).toContain('5 credits · 2 cached, free');
      expect(JSON.stringify(blocks.at(-2))).toContain('p.next');
    }
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

  it('lets a multi-select be given every one of its options, the chosen one first', () => {
    const multi = select({
      placeholder: 'Choose creators to add…',
      actionId: 'creators.choose:page',
      options: Array.from({ length: 7 }, (_, i) => ({ label: `@c${i}`, value: `u${i}` })),
      selected: 'u2',
      multiple: true,
    });
    const messages = renderSlackMessages(reply([multi]));
    assertLimits(messages);
    const [element] = elementsOf(messages);
    expect(element).toMatchObject({
      type: 'multi_static_select',
      action_id: 'creators.choose:page',
      max_selected_items: 7,
      initial_options: [{ value: 'u2' }],
    });
    expect(element).not.toHaveProperty('initial_option');
    const [single] = elementsOf(renderSlackMessages(reply([{ ...multi, multiple: false }])));
    expect(single).toMatchObject({ type: 'static_select', initial_option: { value: 'u2' } });
    expect(single).not.toHaveProperty('max_selected_items');
    // Slack refuses a multi-select allowing more choices than it offers.
    expect(
      blocksProblem([{ type: 'actions', elements: [{ ...element, max_selected_items: 8 }] }]),
    ).not.toBeNull();
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
