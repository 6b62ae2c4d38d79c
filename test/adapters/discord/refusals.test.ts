/** The fake Discord refuses the messages Discord refuses: Components V2 beside content or embeds, counts, rows. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPONENTS_V2, messageProblem } from '../../fakes/discord-checks.js';
import { createFakeDiscord, type FakeDiscord } from '../../fakes/discord-fake.js';

type Obj = Record<string, unknown>;

const text = (content: string): Obj => ({ type: 10, content });
const button = (id: string): Obj => ({ type: 2, style: 2, label: id, custom_id: id });
const row = (...components: Obj[]): Obj => ({ type: 1, components });
const section = (content: string): Obj => ({
  type: 9,
  components: [text(content)],
  accessory: { type: 11, media: { url: 'https://cdn.example.com/a.png' } },
});
const container = (...components: Obj[]): Obj => ({ type: 17, components });
const v2 = (components: Obj[], extra: Obj = {}): Obj => ({ flags: COMPONENTS_V2, components, ...extra });

/** Ten sections of a page in a container (31 components), and a row of five buttons (6). */
const page = () => [
  container(...Array.from({ length: 10 }, (_, i) => section(`creator ${i}`))),
  row(...Array.from({ length: 5 }, (_, i) => button(`b${i}`))),
];

describe('what the fake Discord refuses', () => {
  it('takes a Components V2 message of 40 components and 4,000 characters', () => {
    // 37 components and 90 characters in the page, 3 and 3,910 more.
    const texts = [text('x'.repeat(1000)), text('y'.repeat(1000)), text('z'.repeat(1910))];
    expect(messageProblem(v2([...page(), ...texts]))).toBeNull();
    expect(messageProblem(v2([...page(), ...texts, text('')]))).not.toBeNull();
    expect(messageProblem(v2([...page(), ...texts.slice(0, 2), text('z'.repeat(1911))]))).not.toBeNull();
  });

  it.each([
    ['content beside Components V2', v2([text('a')], { content: 'hi' })],
    ['embeds beside Components V2', v2([text('a')], { embeds: [{ title: 'x' }] })],
    ['41 components', v2([...page(), text('a'), row(button('y'), button('z'))])],
    ['4,001 characters of text displays', v2([text('x'.repeat(2000)), text('y'.repeat(2001))])],
    ['a container of 11 components', v2([container(...Array.from({ length: 11 }, (_, i) => text(`${i}`)))])],
    ['a section without its accessory', v2([{ type: 9, components: [text('a')] }])],
    [
      'a section of four text displays',
      v2([{ ...section('a'), components: [1, 2, 3, 4].map((n) => text(`${n}`)) }]),
    ],
    ['a container without IS_COMPONENTS_V2', { components: [container(text('a'))] }],
    ['six action rows', { components: Array.from({ length: 6 }, (_, i) => row(button(`r${i}`))) }],
    ['a row of six buttons', { components: [row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)))] }],
    ['two components with one custom_id', v2([row(button('same'), button('same'))])],
    [
      'a select asking for more choices than it has',
      v2([row({ type: 3, custom_id: 's', options: [{ label: 'a', value: 'a' }], max_values: 2 })]),
    ],
    ['eleven embeds', { embeds: Array.from({ length: 11 }, () => ({ title: 'x' })) }],
  ])('refuses %s', (_, body) => {
    expect(messageProblem(body)).not.toBeNull();
  });

  it('refuses taking IS_COMPONENTS_V2 from a message, or content and embeds in an edit of one', () => {
    const edited = { flags: COMPONENTS_V2, content: '', embeds: [] };
    expect(messageProblem({ flags: 0, components: [row(button('a'))] }, edited)).not.toBeNull();
    expect(messageProblem({ embeds: [{ title: 'back to embeds' }] }, edited)).not.toBeNull();
    expect(messageProblem({ components: [text('still v2')] }, edited)).toBeNull();
    // A message that had content becomes Components V2 when the edit empties it.
    const old = { flags: 0, content: 'thinking', embeds: [{ title: 'x' }] };
    expect(messageProblem(v2([text('a')]), old)).not.toBeNull();
    expect(messageProblem(v2([text('a')], { content: '', embeds: [] }), old)).toBeNull();
  });
});

describe('the fake Discord answers 400 where Discord does', () => {
  let fake: FakeDiscord;
  const CHANNEL = '400000000000000009';

  beforeAll(async () => {
    fake = createFakeDiscord({
      applicationId: '100000000000000009',
      guildId: '300000000000000009',
      channelId: CHANNEL,
    });
    await fake.start();
  });

  afterAll(async () => {
    await fake?.stop();
  });

  const send = (method: string, path: string, body: Obj) =>
    fetch(`${fake.apiUrl}/v10${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: 'Bot t' },
      body: JSON.stringify(body),
    });

  it('refuses a channel message of Components V2 with content, and its edit back to embeds', async () => {
    const refused = await send('POST', `/channels/${CHANNEL}/messages`, v2([text('a')], { content: 'hi' }));
    expect(refused.status).toBe(400);
    expect(fake.requests.at(-1)?.refused).toMatch(/content/);
    const taken = await send('POST', `/channels/${CHANNEL}/messages`, v2(page()));
    expect(taken.status).toBe(200);
    const { id } = (await taken.json()) as { id: string };
    const back = await send('PATCH', `/channels/${CHANNEL}/messages/${id}`, { embeds: [{ title: 'x' }] });
    expect(back.status).toBe(400);
    const kept = await send('PATCH', `/channels/${CHANNEL}/messages/${id}`, { components: [text('b')] });
    expect(kept.status).toBe(200);
  });

  it('refuses a follow-up of more than 40 components and an interaction answer that breaks the rules', async () => {
    const { token, id } = fake.interact(2, { id: '1', name: 'scout', type: 1 });
    const follow = await send('POST', `/webhooks/100000000000000009/${token}`, v2([...page(), ...page()]));
    expect(follow.status).toBe(400);
    const answer = await send('POST', `/interactions/${id}/${token}/callback`, {
      type: 4,
      data: v2([text('a')], { embeds: [{ title: 'x' }] }),
    });
    expect(answer.status).toBe(400);
  });
});
