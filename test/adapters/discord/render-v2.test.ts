/**
 * The Components V2 layout of replies with cards, at every limit: ten creators with their pictures and buttons in one
 * message of at most 40 components and 4,000 characters, the longest handle and bio, emoji and right-to-left text,
 * several messages when a reply holds more; checked with the fake Discord's own rules (discord-checks.ts).
 */
import { MessageFlags } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { editOf, payloadOf } from '../../../src/adapters/discord/answer.js';
import { DISCORD } from '../../../src/adapters/discord/limits.js';
import {
  type DiscordMessage,
  MESSAGES_MAX,
  renderDiscord,
  TRUNCATED_NOTE,
} from '../../../src/adapters/discord/render.js';
import {
  type Button,
  button,
  buttons,
  CARDS_PER_PAGE,
  CARDS_PER_PAGE_MAX,
  card,
  creatorCard,
  file,
  notice,
  pager,
  type Reply,
  type ReplyNode,
  reply,
  select,
  text,
} from '../../../src/core/ui/index.js';
import {
  actionIdsOf,
  atNeutralLimits,
  EMOJI,
  HOSTILE_PROFILE,
  NOW,
  nullNodes,
  worstCaseCards,
  worstCaseReply,
} from '../../core/ui/fixtures.js';
import { messageProblem } from '../../fakes/discord-checks.js';
import { allComponents, cardTitles, interactive, pressable, textDisplays } from './layout.js';

/** The body Discord gets for a message, with its flags. */
const sent = (message: DiscordMessage) => payloadOf(message, false) as unknown as Record<string, unknown>;

/** Renders a reply and checks every message against Discord's rules; returns the messages. */
function checked(shown: Reply): DiscordMessage[] {
  const { messages } = renderDiscord(shown);
  expect(messages.length).toBeGreaterThan(0);
  expect(messages.length).toBeLessThanOrEqual(MESSAGES_MAX);
  for (const message of messages) {
    expect(messageProblem(sent(message))).toBeNull();
    // No lone half of a surrogate pair: emoji are never cut in two.
    expect(JSON.stringify(message)).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
  }
  return messages;
}

const count = (message: DiscordMessage) => allComponents(message).length;
const textSize = (message: DiscordMessage) => textDisplays(message).reduce((n, t) => n + [...t].length, 0);

const RTL = 'مرحبا بالعالم — שלום עולם';

/** A creator card of the hostile profile (the longest handle and bio), with the buttons of a result page. */
const creator = (i: number, profile: Record<string, unknown> = HOSTILE_PROFILE) =>
  creatorCard(profile, {
    fetchedAt: NOW - 5_000,
    now: NOW,
    actions: [
      button('Add to list', `creators.add:${i}`, { style: 'primary' }),
      button('Details', `creators.details:${i}`),
    ],
    revealEmail: true,
  });

/** A result page as a creator search answers: heading, cards, bulk buttons and select, notices, pager. */
function resultPage(size: number, options: { bulk?: boolean; notices?: boolean } = {}): Reply {
  const nodes: Array<ReplyNode | null> = [
    text(`Creators · niche: ${EMOJI} ${RTL} — 11-${10 + size} of 240+`),
    ...Array.from({ length: size }, (_, i) => creator(i)),
    options.bulk === false
      ? null
      : buttons(
          button('Add all on this page', 'creators.add:page'),
          button('Add all 240 results', 'creators.add:all'),
        ),
    options.bulk === false
      ? null
      : select({
          placeholder: 'Choose creators to add…',
          actionId: 'creators.choose:page',
          options: Array.from({ length: size }, (_, i) => ({ label: `@creator${i}`, value: `u${i}` })),
          multiple: true,
        }),
    options.notices === true ? notice('info', '1 creator is no longer available from the service.') : null,
    pager({ page: 2, totalPages: 48, prevActionId: 'creators.page:1', nextActionId: 'creators.page:3' }),
    options.notices === true ? notice('warning', 'Trial: 12 credits left.') : null,
  ];
  return reply(
    nodes.filter((n) => n !== null),
    { visibility: 'channel' },
  );
}

/** The model's tokens a person must be able to press: every enabled button, select and pager arrow. */
const enabledTokens = (shown: Reply) => {
  const disabled = new Set(
    shown.nodes
      .flatMap((n): readonly Button[] =>
        n.type === 'card' ? n.actions : n.type === 'buttons' ? n.buttons : [],
      )
      .filter((b) => b.disabled === true)
      .map((b) => b.actionId),
  );
  return actionIdsOf(shown).filter((id) => !disabled.has(id));
};

describe('Components V2 layout of cards', () => {
  it(`lays out a page of ${CARDS_PER_PAGE_MAX} creators in one message: pictures, text, every button, the pager`, () => {
    for (const options of [{}, { notices: true }, { bulk: false }]) {
      const page = resultPage(CARDS_PER_PAGE_MAX, options);
      const [message, ...more] = checked(page);
      expect(more).toHaveLength(0);
      if (message === undefined) throw new Error('no message');
      expect(message.componentsV2).toBe(true);
      expect(message.content).toBe('');
      expect(message.embeds).toEqual([]);
      expect(count(message)).toBeLessThanOrEqual(DISCORD.V2_COMPONENTS_MAX);
      expect(textSize(message)).toBeLessThanOrEqual(DISCORD.V2_TEXT_MAX);
      // One container of ten sections, each with the creator's picture beside its text.
      const containers = message.components.filter((c) => c.type === 17);
      expect(containers).toHaveLength(1);
      const sections = allComponents(message).filter((c) => c.type === 9);
      expect(sections).toHaveLength(CARDS_PER_PAGE_MAX);
      for (const section of sections) expect(section.accessory?.media?.url).toBe(creator(0).image?.url);
      expect(cardTitles(message)).toHaveLength(CARDS_PER_PAGE_MAX);
      expect(cardTitles(message)[0]).toMatch(/^1\. \\@/);
      // Every button of the page can be pressed, as a button or an option of a select standing for buttons.
      expect(new Set(pressable(message))).toEqual(new Set(enabledTokens(page)));
      const text = textDisplays(message).join('\n');
      expect(text).toContain('**Followers** 1.3M');
      // Where we are: on the pager's middle button, or said under the page when the buttons need its room.
      const labels = interactive(message).map((c) => c.label ?? '');
      expect([text, ...labels].join('\n')).toContain('Page 2 of 48');
    }
  });

  it('gathers the buttons of ten cards into a select per label, each option naming its card', () => {
    const [message] = checked(resultPage(CARDS_PER_PAGE_MAX, { bulk: false }));
    const selects = interactive(message ?? {}).filter((c) => c.type === 3);
    expect(selects.map((s) => s.placeholder)).toEqual(['Add to list…', 'Details…']);
    expect(selects[1]?.options?.map((o) => o.value)).toEqual(
      Array.from({ length: CARDS_PER_PAGE_MAX }, (_, i) => `creators.details:${i}`),
    );
    expect(selects[1]?.options?.[0]?.label).toMatch(/^1\. @/);
  });

  it(`keeps each card's buttons in a row under it on a page of ${CARDS_PER_PAGE}`, () => {
    const [message] = checked(resultPage(CARDS_PER_PAGE, { bulk: false }));
    const [container] = (message?.components ?? []).filter((c) => c.type === 17) as unknown as Array<{
      components: Array<{ type: number; components?: Array<{ custom_id?: string }> }>;
    }>;
    expect(container?.components.map((c) => c.type)).toEqual([9, 1, 9, 1, 9, 1, 9, 1, 9, 1]);
    expect(container?.components[1]?.components?.map((c) => c.custom_id)).toEqual([
      'creators.add:0',
      'creators.details:0',
    ]);
    // The pager says where we are in its middle button.
    expect(interactive(message ?? {}).map((c) => c.label)).toContain('Page 2 of 48');
  });

  it('ends a page with the line that follows its pager (the cost line), below the pager', () => {
    const page = resultPage(3);
    const [message] = checked(reply([...page.nodes, text('5 credits')], { visibility: 'channel' }));
    const components = message?.components ?? [];
    expect(components.at(-1)).toEqual({ type: 10, content: '5 credits' });
    const rows = components.filter((c) => c.type === 1);
    const pagerRow = components.indexOf(rows.at(-1) as (typeof components)[number]);
    expect(pagerRow).toBe(components.length - 2);
    // Where the line's own component has no room (ten cards), it ends the text above the buttons.
    const [full] = checked(reply([...resultPage(CARDS_PER_PAGE_MAX).nodes, text('50 credits')]));
    expect(textDisplays(full ?? {}).join('\n')).toContain('50 credits');
  });

  it('shows every fact of a lone card, a profile’s details, with its footnote and buttons', () => {
    const profile = {
      user_id: 'tiktok_1',
      handle: 'ana.fit',
      nickname: 'Ana Fit',
      source: 'tiktok',
      followers: 120_000,
      engagement_rate: 0.034,
      avg_views: 50_000,
      avg_likes: 3_000,
      country: 'United States',
      language: 'English',
      main_category: 'Fitness',
      best_promotion_niches: ['yoga', 'pilates', 'running', 'nutrition', 'sleep', 'mobility'],
      email: 'ana@example.com',
      avatar_url: 'https://cdn.example.com/ana.png',
    };
    const details = creator(0, profile);
    const [message] = checked(reply([details]));
    const shown = textDisplays(message ?? {}).join('\n');
    for (const field of details.fields) expect(shown).toContain(`**${field.label}**`);
    expect(shown).toContain('ana@example.com'.replace('@', '\\@'));
    expect(shown).toContain('-# Data\\: ');
    expect(cardTitles(message ?? {})).toEqual(['\\@ana.fit · Ana Fit']);
    expect(pressable(message ?? {})).toEqual(['creators.add:0', 'creators.details:0']);
  });

  it('keeps the longest handle and bio, emoji and right-to-left text within every limit, whole', () => {
    const rtl = {
      ...HOSTILE_PROFILE,
      handle: `${RTL}${EMOJI}`.repeat(8),
      nickname: `${EMOJI}${RTL}`.repeat(8),
      country: RTL,
    };
    for (const profile of [HOSTILE_PROFILE, rtl]) {
      const page = reply(Array.from({ length: CARDS_PER_PAGE_MAX }, (_, i) => creator(i, profile)));
      const [message] = checked(page);
      expect(textSize(message as DiscordMessage)).toBeLessThanOrEqual(DISCORD.V2_TEXT_MAX);
    }
    const [alone] = checked(reply([creator(0, rtl)]));
    expect(textDisplays(alone ?? {}).join('\n')).toContain(RTL.slice(0, 6));
  });

  it('lays out every worst case card and reply, and the replies at the neutral limits, pressable whole', () => {
    const cases = [
      ...Object.values(worstCaseCards()).map((c) => reply([c])),
      reply(Object.values(worstCaseCards())),
      worstCaseReply(),
      reply(nullNodes()),
      ...Object.values(atNeutralLimits()).filter((r) => r.nodes.some((n) => n.type === 'card')),
    ];
    for (const shown of cases) {
      const messages = checked(shown);
      if (messages.some((m) => m.components.some((c) => c.type === 10 && c.content.includes('did not fit'))))
        continue;
      const tokens = new Set(messages.flatMap(pressable));
      for (const id of enabledTokens(shown)) expect(tokens.has(id)).toBe(true);
    }
  });

  it('goes on in further messages for more cards than a page, the pager on the last, a marker when cut', () => {
    const many = (n: number) =>
      reply([
        ...Array.from({ length: n }, (_, i) => creator(i)),
        pager({ page: 1, totalPages: 3, prevActionId: null, nextActionId: 'creators.page:2' }),
      ]);
    const messages = checked(many(25));
    expect(messages.length).toBeGreaterThan(1);
    expect(JSON.stringify(messages.at(-1))).toContain('creators.page:2');
    expect(messages.slice(0, -1).some((m) => JSON.stringify(m).includes('creators.page:2'))).toBe(false);
    expect(messages.flatMap((m) => cardTitles(m))).toHaveLength(25);
    const cut = checked(many(80));
    expect(cut).toHaveLength(MESSAGES_MAX);
    expect(textDisplays(cut.at(-1) ?? {}).join('\n')).toContain('did not fit');
    expect(JSON.stringify(cut.at(-1))).toContain('creators.page:2');
    expect(TRUNCATED_NOTE).toContain('did not fit');
  });

  it('shows a card without a web picture as text alone, and the reply files in the first message', () => {
    const plain = (n: number) => card({ title: `List ${n}`, actions: [button('Open', `lists.open:${n}`)] });
    const bytes = new TextEncoder().encode('a,b\n');
    const files = [
      file('chart.png', bytes, { mimeType: 'image/png', display: 'image' }),
      file('Spring.csv', bytes, { mimeType: 'text/csv' }),
    ];
    const rendering = renderDiscord({ ...reply([plain(1), plain(2), plain(3)]), files });
    const [first, ...rest] = rendering.messages;
    expect(rest).toHaveLength(0);
    expect(messageProblem(sent(first as DiscordMessage))).toBeNull();
    expect((first?.components ?? []).map((c) => c.type)).toEqual([17, 12, 13]);
    const [container] = allComponents({ components: (first?.components ?? []).slice(0, 1) });
    expect(container?.components?.map((c) => c.type)).toEqual([10, 1, 10, 1, 10, 1]);
    // Without a component showing them, Discord shows no attachment of a Components V2 message.
    expect(JSON.stringify(first?.components)).toContain('attachment://chart.png');
    expect(JSON.stringify(first?.components)).toContain('attachment://Spring.csv');
    expect(rendering.files.map((f) => f.name)).toEqual(['chart.png', 'Spring.csv']);
  });
});

describe('how a Components V2 message is sent', () => {
  it('sends the flag and nothing of content or embeds; an edit empties them', () => {
    const [message] = renderDiscord(resultPage(3)).messages;
    if (message === undefined) throw new Error('no message');
    const created = payloadOf(message, true);
    expect(created.flags).toBe(MessageFlags.IsComponentsV2 | MessageFlags.Ephemeral);
    expect('content' in created || 'embeds' in created).toBe(false);
    expect(payloadOf(message, false).flags).toBe(MessageFlags.IsComponentsV2);
    const edit = editOf(message);
    expect(edit).toMatchObject({ content: '', embeds: [], flags: MessageFlags.IsComponentsV2 });
    expect(messageProblem(edit as unknown as Record<string, unknown>, { flags: 0, content: 'x' })).toBeNull();
  });

  it('keeps embeds for a reply without cards and for a post with a footer note, unless V2 is asked for', () => {
    const plain = reply([notice('info', 'No page 9: this result has 40 creators.')]);
    const [embeds] = renderDiscord(plain).messages;
    expect(embeds?.componentsV2).toBe(false);
    expect(embeds?.embeds).toHaveLength(1);
    expect(payloadOf(embeds as DiscordMessage, false)).not.toHaveProperty('flags');
    const [v2] = renderDiscord(plain, { componentsV2: true }).messages;
    expect(v2?.componentsV2).toBe(true);
    expect(textDisplays(v2 ?? {}).join('')).toContain('No page 9');
    const [noted] = renderDiscord(resultPage(3), { footerNote: () => 'ref abc' }).messages;
    expect(noted?.componentsV2).toBe(false);
    // The fake refuses a V2 message that keeps content, or an edit that takes the flag away.
    expect(
      messageProblem({ flags: MessageFlags.IsComponentsV2, content: 'x', components: [] }),
    ).not.toBeNull();
    expect(
      messageProblem({ flags: 0, embeds: [{ title: 'x' }] }, { flags: MessageFlags.IsComponentsV2 }),
    ).not.toBeNull();
  });

  it('lets a multi-select be given every one of its options', () => {
    const multi = select({
      placeholder: 'Choose creators to add…',
      actionId: 'creators.choose:page',
      options: Array.from({ length: 7 }, (_, i) => ({ label: `@c${i}`, value: `u${i}` })),
      multiple: true,
    });
    for (const shown of [reply([multi]), reply([creator(0), creator(1), multi])]) {
      const [message] = checked(shown);
      const found = interactive(message ?? {}).find((c) => c.custom_id === 'creators.choose:page');
      expect(found).toMatchObject({ min_values: 1, max_values: 7 });
    }
    const [single] = renderDiscord(reply([{ ...multi, multiple: false }])).messages;
    expect(interactive(single ?? {})[0]).not.toHaveProperty('max_values');
  });
});
