/** Cards in a row as Slack's carousel: a page of up to ten cards, each card block within its limits. */
import { describe, expect, it } from 'vitest';
import { SLACK } from '../../../src/adapters/slack/limits.js';
import { escapeMrkdwn } from '../../../src/adapters/slack/mrkdwn.js';
import { renderSlackMessages } from '../../../src/adapters/slack/render.js';
import { button, card, creatorCard, pager, type Reply, reply, text } from '../../../src/core/ui/index.js';
import { CARDS_PER_PAGE, CARDS_PER_PAGE_MAX } from '../../../src/core/ui/limits.js';
import { EMOJI, HOSTILE, HOSTILE_PROFILE, NOW } from '../../core/ui/fixtures.js';
import { allBlocks, assertLimits, buttonIds, carouselCards, type Obj } from './block-limits.js';

const fullPage = (size = CARDS_PER_PAGE): Reply =>
  reply(
    [
      text('Creators matching ', HOSTILE),
      ...Array.from({ length: size }, (_, i) =>
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

describe('cards in a row as a carousel', () => {
  it('lays out a page of hostile creator cards as one carousel, up to CARDS_PER_PAGE_MAX, in one message', () => {
    for (const size of [2, CARDS_PER_PAGE, CARDS_PER_PAGE_MAX]) {
      const messages = renderSlackMessages(fullPage(size));
      assertLimits(messages);
      expect(messages).toHaveLength(1);
      const carousels = allBlocks(messages).filter((b) => b.type === 'carousel');
      expect(carousels).toHaveLength(1);
      const cards = carouselCards(messages);
      expect(cards).toHaveLength(size);
      for (const shown of cards) {
        expect((shown.hero_image as Obj).type).toBe('image');
        expect(String((shown.title as Obj).text).length).toBeLessThanOrEqual(SLACK.CARD_TITLE_MAX);
        expect(String((shown.subtitle as Obj).text)).toBe('TikTok');
        // The first facts, whole, as far as the body's 200 characters go.
        expect(String((shown.body as Obj).text)).toMatch(
          /^Followers 1\.3M · Engagement 3\.4% · Avg views 988K · /,
        );
        expect(String((shown.body as Obj).text).length).toBeLessThanOrEqual(SLACK.CARD_BODY_MAX);
      }
      expect(buttonIds(messages)).toEqual([
        ...Array.from({ length: size }, (_, i) => [`creators.add:${i}`, `creators.details:${i}`]).flat(),
        'creators.page:prev',
        'creators.page:next',
      ]);
      // No classic card section is left beside the carousel; the notification text names every creator.
      expect(allBlocks(messages).some((b) => b.type === 'section' && b.accessory !== undefined)).toBe(false);
      expect(messages[0]?.text).toContain('Followers: 1.3M');
    }
  });

  it('puts eleven cards in a row in two carousels, ten and one, and a lone card in the section layout', () => {
    const eleven = renderSlackMessages(fullPage(CARDS_PER_PAGE_MAX + 1));
    assertLimits(eleven);
    const sizes = allBlocks(eleven)
      .filter((b) => b.type === 'carousel')
      .map((b) => (b.elements as Obj[]).length);
    expect(sizes).toEqual([CARDS_PER_PAGE_MAX, 1]);
    const lone = renderSlackMessages(fullPage(1));
    assertLimits(lone);
    expect(allBlocks(lone).some((b) => b.type === 'carousel')).toBe(false);
    const [section] = allBlocks(lone).filter((b) => b.type === 'section' && b.accessory !== undefined);
    expect(((section?.fields ?? []) as Obj[]).length).toBeGreaterThanOrEqual(8);
    expect(JSON.stringify(lone)).toContain('Data: ');
    // Cards with neither picture nor buttons (rows of facts) keep the section layout, however many.
    const plain = renderSlackMessages(reply([card({ title: 'A' }), card({ title: 'B' })]));
    expect(allBlocks(plain).map((b) => b.type)).toEqual(['section', 'section']);
  });

  it('lays out a carousel card: picture, linked title, subtitle, first line and facts, buttons', () => {
    const shown = (url: string) =>
      card({
        title: '@jane *star*',
        link: { url: 'https://www.tiktok.com/@jane', label: 'Profile' },
        subtitle: 'TikTok · United States',
        body: ['Caption <!here>'],
        image: { url, alt: '@jane' },
        fields: [
          { label: 'Followers', value: '1.2M', inline: true },
          { label: 'Engagement', value: '—', inline: true },
          { label: 'Avg views', value: '98K', inline: true },
        ],
        footnote: 'Data: 2 days old',
        actions: [
          button('Add to list', 'creators.add:1', { style: 'primary' }),
          button('Details', 'creators.details:1'),
        ],
      });
    const [message] = renderSlackMessages(
      reply([shown('https://cdn.example.com/jane.jpg'), shown('ftp://x.example/a')]),
    );
    const [first, second] = carouselCards(message === undefined ? [] : [message]);
    expect(first).toEqual({
      type: 'card',
      hero_image: { type: 'image', image_url: 'https://cdn.example.com/jane.jpg', alt_text: '@jane' },
      title: {
        type: 'mrkdwn',
        text: `<https://www.tiktok.com/@jane|@jane ${escapeMrkdwn('*star*')}>`,
        verbatim: true,
      },
      subtitle: { type: 'mrkdwn', text: 'TikTok · United States', verbatim: true },
      body: { type: 'mrkdwn', text: 'Caption &lt;!here&gt;\nFollowers 1.2M · Avg views 98K', verbatim: true },
      actions: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Add to list', emoji: true },
          action_id: 'creators.add:1',
          value: 'creators.add:1',
          style: 'primary',
        },
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Details', emoji: true },
          action_id: 'creators.details:1',
          value: 'creators.details:1',
        },
      ],
    });
    // A picture that is not a web address is no hero image; the card stays.
    expect(second).not.toHaveProperty('hero_image');
    expect(message?.text).toContain('@jane *star* (TikTok · United States)');
  });

  it('cuts the longest handle, bio, emoji and right-to-left text to a carousel card, never a character in two', () => {
    const rtl = 'مرحبا بالعالم — שלום עולם ';
    const profiles = [
      HOSTILE_PROFILE,
      {
        ...HOSTILE_PROFILE,
        handle: `${rtl}${EMOJI}`.repeat(20),
        nickname: `${EMOJI}${rtl}`.repeat(20),
        country: rtl,
      },
    ];
    for (const profile of profiles) {
      const page = reply(
        Array.from({ length: CARDS_PER_PAGE_MAX }, (_, i) =>
          creatorCard(profile, {
            fetchedAt: NOW,
            now: NOW,
            actions: [button(`${EMOJI} Add to list ${rtl}`, `creators.add:${i}`)],
          }),
        ),
      );
      const messages = renderSlackMessages(page);
      assertLimits(messages);
      expect(messages).toHaveLength(1);
      for (const shown of carouselCards(messages)) {
        for (const part of ['title', 'subtitle', 'body'])
          expect(JSON.stringify((shown[part] as Obj | undefined)?.text ?? '')).not.toMatch(
            /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i,
          );
      }
    }
  });
});
