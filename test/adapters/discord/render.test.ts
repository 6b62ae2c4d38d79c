import { describe, expect, it } from 'vitest';
import { editOf, payloadOf } from '../../../src/adapters/discord/answer.js';
import { DISCORD } from '../../../src/adapters/discord/limits.js';
import { chunkText, mentionMarkdown, truncateMarkdown } from '../../../src/adapters/discord/markdown.js';
import {
  type DiscordRow,
  embedTextLength,
  FOOTER_NOTE_MAX,
  type RenderOptions,
  renderDiscord,
  TRUNCATED_NOTE,
} from '../../../src/adapters/discord/render.js';
import {
  button,
  buttons,
  card,
  creatorCard,
  mention,
  notice,
  pager,
  type Reply,
  reply,
  text,
} from '../../../src/core/ui/index.js';
import {
  actionIdsOf,
  atNeutralLimits,
  HOSTILE_PROFILE,
  hostileButtons,
  LONG_HOSTILE,
  MENTIONS,
  NOW,
  nullNodes,
  worstCaseCards,
  worstCaseNodes,
  worstCaseReply,
} from '../../core/ui/fixtures.js';
import { messageProblem } from '../../fakes/discord-checks.js';
import { interactive } from './layout.js';

/** The rows of a message laid out with embeds. */
const rowsOf = (m: { components: unknown[] }) => m.components as DiscordRow[];

function checkLimits(r: Reply, options?: RenderOptions) {
  const { messages } = renderDiscord(r, options);
  expect(messages.length).toBeGreaterThan(0);
  for (const m of messages) {
    // What Discord refuses, as the fake Discord refuses it; a Components V2 message has no embeds to measure.
    expect(messageProblem(payloadOf(m, false) as unknown as Record<string, unknown>)).toBeNull();
    if (m.componentsV2) continue;
    expect(m.embeds.length).toBeLessThanOrEqual(DISCORD.EMBEDS_MAX);
    expect(m.embeds.reduce((sum, e) => sum + embedTextLength(e), 0)).toBeLessThanOrEqual(
      DISCORD.EMBEDS_TOTAL_TEXT_MAX,
    );
    expect(m.content.length).toBeLessThanOrEqual(DISCORD.CONTENT_MAX);
    expect(m.components.length).toBeLessThanOrEqual(DISCORD.ACTION_ROWS_MAX);
    const ids = new Set<string>();
    for (const e of m.embeds) {
      expect((e.title ?? '').length).toBeLessThanOrEqual(DISCORD.EMBED_TITLE_MAX);
      expect((e.description ?? '').length).toBeLessThanOrEqual(DISCORD.EMBED_DESCRIPTION_MAX);
      expect((e.fields ?? []).length).toBeLessThanOrEqual(DISCORD.EMBED_FIELDS_MAX);
      expect((e.footer?.text ?? '').length).toBeLessThanOrEqual(DISCORD.EMBED_FOOTER_MAX);
      for (const f of e.fields ?? []) {
        expect(f.name.length).toBeLessThanOrEqual(DISCORD.EMBED_FIELD_NAME_MAX);
        expect(f.value.length).toBeLessThanOrEqual(DISCORD.EMBED_FIELD_VALUE_MAX);
      }
    }
    for (const row of rowsOf(m)) {
      expect(row.components.length).toBeLessThanOrEqual(DISCORD.ROW_BUTTONS_MAX);
      for (const c of row.components) {
        const id = 'custom_id' in c ? c.custom_id : '';
        expect(id.length).toBeLessThanOrEqual(DISCORD.CUSTOM_ID_MAX);
        expect(ids.has(id)).toBe(false);
        ids.add(id);
        if (c.type === 2 && 'label' in c)
          expect((c.label ?? '').length).toBeLessThanOrEqual(DISCORD.BUTTON_LABEL_MAX);
        if (c.type === 3) expect(c.options.length).toBeLessThanOrEqual(DISCORD.SELECT_OPTIONS_MAX);
      }
    }
  }
  return messages;
}

const pagerIds = (r: Reply) =>
  renderDiscord(r)
    .messages.flatMap((m) => interactive(m))
    .map((c) => c.custom_id ?? '');

describe('renderDiscord', () => {
  it('keeps every node type of the worst case within Discord limits', () => {
    for (const node of Object.values(worstCaseNodes())) checkLimits(reply([node]));
    for (const built of Object.values(worstCaseCards())) checkLimits(reply([built]));
    checkLimits(worstCaseReply());
    checkLimits(reply(nullNodes()));
  });

  it('renders replies built at every neutral limit of core within Discord limits, no token or label cut', () => {
    for (const built of Object.values(atNeutralLimits())) {
      const messages = checkLimits(built);
      expect(JSON.stringify(messages)).not.toContain('did not fit');
      const components = messages.flatMap((m) => interactive(m));
      // A card's buttons may be options of a select standing for them (`scout.more:`), valued by their tokens.
      const options = components.flatMap((c) =>
        c.custom_id?.startsWith('scout.more:') ? (c.options ?? []) : [],
      );
      const ids = [...components.map((c) => c.custom_id ?? ''), ...options.map((o) => o.value)];
      for (const id of actionIdsOf(built)) expect(ids).toContain(id);
      // A card's buttons in a message of several cards are numbered after it (`2. Add to list`), as options too.
      const labels = [...components.map((c) => c.label ?? ''), ...options.map((o) => o.label)].map((label) =>
        label.replace(/^\d+\. /, ''),
      );
      const modelButtons = built.nodes.flatMap((n) =>
        n.type === 'buttons' ? n.buttons : n.type === 'card' ? n.actions : [],
      );
      for (const b of modelButtons) expect(labels).toContain(b.label);
      const selects = components.filter((c) => c.type === 3 && !c.custom_id?.startsWith('scout.more:'));
      for (const n of built.nodes) {
        if (n.type !== 'select') continue;
        const shown = selects.find((c) => c.custom_id === n.actionId)?.options ?? [];
        expect(shown.map((o) => [o.label, o.value, o.description])).toEqual(
          n.options.map((o) => [o.label, o.value, o.description]),
        );
      }
    }
  });

  it('lays out a card of a post with a footer note as an embed: linked title, subtitle and body, thumbnail, fields, footnote; buttons below', () => {
    // A keyed post carries its ref in an embed's footer; any other reply with cards is laid out with Components V2.
    const noted: RenderOptions = { footerNote: () => '' };
    const full = card({
      title: '@jane *star*',
      link: { url: 'https://www.tiktok.com/@jane', label: 'Profile' },
      subtitle: 'TikTok',
      body: ['Caption @everyone', 'Hook: wait'],
      image: { url: 'https://cdn.example.com/jane.jpg', alt: '@jane' },
      fields: [
        { label: 'Followers', value: '1.2M', inline: true },
        { label: 'Niches', value: 'skincare' },
      ],
      footnote: 'Data: 2 days old',
      actions: [button('Add to list', 'creators.add:1', { style: 'primary' })],
    });
    const [message] = renderDiscord(reply([full]), noted).messages;
    expect(message?.embeds).toEqual([
      {
        color: 0x2b88d8,
        title: '\\@jane \\*star\\*',
        url: 'https://www.tiktok.com/@jane',
        description: 'TikTok\nCaption \\@everyone\nHook\\: wait',
        thumbnail: { url: 'https://cdn.example.com/jane.jpg' },
        fields: [
          { name: 'Followers', value: '1.2M', inline: true },
          { name: 'Niches', value: 'skincare', inline: false },
        ],
        footer: { text: 'Data: 2 days old' },
      },
    ]);
    expect(message?.components).toEqual([
      {
        type: 1,
        components: [{ type: 2, custom_id: 'creators.add:1', label: 'Add to list', style: 1 }],
      },
    ]);
    expect(message?.componentsV2).toBe(false);
    // A bare card is a title only; cards with buttons are numbered, with their buttons, when several share a reply.
    expect(renderDiscord(reply([card({ title: 'Spring' })]), noted).messages[0]?.embeds).toEqual([
      { color: 0x2b88d8, title: 'Spring', fields: [] },
    ]);
    const open = (n: number) => card({ title: `List ${n}`, actions: [button('Open', `lists.open:${n}`)] });
    const [several] = renderDiscord(reply([open(1), card({ title: 'No buttons' }), open(2)]), noted).messages;
    expect(several?.embeds.map((e) => e.title)).toEqual(['1. List 1', 'No buttons', '2. List 2']);
    expect(
      rowsOf(several ?? { components: [] })[0]?.components.map((c) => ('label' in c ? c.label : '')),
    ).toEqual(['1. Open', '2. Open']);
  });

  it('keeps the pager and moves buttons that do not fit into a select', () => {
    const cards = Array.from({ length: 10 }, (_, i) =>
      creatorCard(HOSTILE_PROFILE, { fetchedAt: NOW, now: NOW, actions: hostileButtons(`c${i}`, 3) }),
    );
    const r = reply([
      ...cards,
      buttons(...hostileButtons('b')),
      pager({ page: 2, totalPages: 9, prevActionId: 'pg.prev', nextActionId: 'pg.next' }),
    ]);
    const messages = checkLimits(r);
    expect(pagerIds(r)).toEqual(expect.arrayContaining(['pg.prev', 'pg.next']));
    const last = messages.at(-1);
    expect(JSON.stringify(last?.components)).toContain('pg.next');
  });

  it('puts a footer note on the last embed of every message and keeps room for it', () => {
    const note = (index: number) =>
      `ref ${'x'.repeat(FOOTER_NOTE_MAX - 6)}${index}`.padEnd(FOOTER_NOTE_MAX, 'y');
    const long = reply(Array.from({ length: 40 }, () => text(LONG_HOSTILE)));
    // 5,990 characters: one message without a note, two with one.
    const full = reply([text('a'.repeat(3000)), text('b'.repeat(2990))]);
    expect(renderDiscord(full).messages).toHaveLength(1);
    expect(renderDiscord(full, { footerNote: note }).messages).toHaveLength(2);
    const cases = [worstCaseReply(), long, full, reply(nullNodes()), reply([buttons(button('Go', 'k.go'))])];
    for (const r of cases) {
      const messages = checkLimits(r, { footerNote: note });
      for (const [index, m] of messages.entries()) {
        expect(m.embeds.at(-1)?.footer?.text?.endsWith(note(index))).toBe(true);
        expect(m.embeds.slice(0, -1).some((e) => e.footer?.text?.includes('ref '))).toBe(false);
      }
    }
    // A footer the embed already has (a notice's reference) keeps its text, with the note after it.
    const [message] = renderDiscord(reply([notice('error', 'Service failed.', { reference: 'req_42' })]), {
      footerNote: () => 'ref abc',
    }).messages;
    expect(message?.embeds.at(-1)?.footer?.text).toBe('Ref req_42 · ref abc');
    // Notes are only added when asked for.
    expect(JSON.stringify(renderDiscord(worstCaseReply()).messages)).not.toContain('"footer":{"text":"ref ');
  });

  it('splits long help text into several messages and marks a cut', () => {
    const long = Array.from({ length: 40 }, () => text(LONG_HOSTILE));
    const messages = checkLimits(reply(long));
    expect(messages.length).toBeGreaterThan(1);
    expect(messages.at(-1)?.content).toBe(TRUNCATED_NOTE);
  });

  it('escapes markup and marks author-only replies ephemeral', () => {
    const rendered = renderDiscord(reply([text('*bold* @everyone <@123>')], { visibility: 'author' }));
    expect(rendered.ephemeral).toBe(true);
    expect(rendered.messages[0]?.embeds[0]?.description).toBe('\\*bold\\* \\@everyone \\<\\@123\\>');
    expect(renderDiscord(reply([buttons(button('Go', 'k.go'))], { visibility: 'channel' })).ephemeral).toBe(
      false,
    );
  });
});

/** Every `<…>` token of Discord markup in a string, skipping escaped `\<`. */
const tokens = (markdown: string) => markdown.match(/(?<!\\)<[^<>]*>/g) ?? [];
/** An `@everyone` or `@here` that Discord would read as a broadcast (not escaped). */
const BROADCAST = /(?<!\\)@(everyone|here)/;
const BOB = '200000000000000042';

describe('mentions on Discord', () => {
  it('renders a snowflake as a mention in the embed, and sends it with no allowed mentions', () => {
    const rendering = renderDiscord(
      reply([notice('success', ['The daily cap of ', mention(BOB), ' is now 6 credits.'])], {
        visibility: 'channel',
      }),
    );
    const [message] = rendering.messages;
    expect(message?.embeds[0]?.description).toBe(`✅ The daily cap of <@${BOB}> is now 6 credits.`);
    expect(message?.content).toBe('');
    if (message === undefined) throw new Error('no message');
    // Named, never pinged: no user, role or @everyone may be notified by a reply.
    expect(editOf(message).allowedMentions).toEqual({ parse: [] });
    expect(payloadOf(message, false).allowedMentions).toEqual({ parse: [] });
  });

  it('keeps ids that are not snowflakes as escaped text: no mention, role or broadcast', () => {
    for (const hostile of [
      'U1>|<!channel>',
      '@everyone',
      '@here',
      '<@&123456789012345678>',
      '12345',
      `${BOB}>x`,
    ]) {
      const description = renderDiscord(reply([text('Cap of ', mention(hostile))])).messages[0]?.embeds[0]
        ?.description;
      expect(tokens(description ?? '')).toEqual([]);
      expect(description).not.toMatch(BROADCAST);
    }
    expect(mentionMarkdown('@everyone')).toBe('\\@\\@everyone');
    const worst = JSON.stringify(
      renderDiscord(reply([text(...MENTIONS), notice('info', MENTIONS)])).messages,
    );
    expect(new Set(worst.match(/(?<!\\\\)<[^<>]*>/g))).toEqual(new Set(['<@123456789012345678>']));
    expect(worst).not.toMatch(/(?<!\\\\)@(everyone|here)/);
  });

  it('cuts and splits long text between mentions, never inside one', () => {
    const whole = (markdown: string) =>
      (markdown.match(/<@/g) ?? []).length === (markdown.match(/<@\d{17,20}>/g) ?? []).length;
    const many = Array.from({ length: 400 }, (_, i) => [
      mention(`2000000000000${String(i).padStart(5, '0')}`),
      ' ',
    ]).flat();
    for (const r of [
      reply([notice('warning', many)]),
      reply([text(...many)]),
      reply([text(...many, ...many)]),
    ]) {
      for (const message of checkLimits(r)) {
        for (const embed of message.embeds) expect(whole(embed.description ?? '')).toBe(true);
      }
    }
    const line = `ab <@${BOB}> cd`;
    expect(truncateMarkdown(line, 10)).toBe('ab …');
    expect(truncateMarkdown(line, line.length)).toBe(line);
    const glued = `<@${BOB}>`.repeat(10);
    for (const chunk of chunkText(glued, 50)) expect(whole(chunk)).toBe(true);
    expect(chunkText(glued, 50).join('')).toBe(glued);
  });
});
