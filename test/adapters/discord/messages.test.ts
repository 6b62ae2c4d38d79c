/**
 * The doors of plain messages on Discord, through real discord.js against the fake gateway and REST (the sandbox as
 * the service): an @mention of Scout in a served server's channel is answered as a reply to it, a DM from a member
 * of a served server in the DM, and nothing else is answered: a bot's or a webhook's message, a system message, an
 * edit or a deletion. Buttons of those answers work as on slash answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORDLESS } from '../../../src/core/chat/index.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import type { FakeMessage, FakePost, FakeRequest, FakeUser } from '../../fakes/discord-fake.js';
import {
  APP_ID,
  answered,
  createWorld,
  edited,
  GUILD,
  messageOf,
  press,
  slash,
  text,
  titles,
  type World,
} from './harness.js';

/** A second served server, and its channel. */
const GUILD2 = '300000000000000002';
const CHANNEL2 = '400000000000000002';
const MENTION = `<@${APP_ID}>`;

const ANA: FakeUser = { id: '200000000000000001', username: 'ana', permissions: '0' };
/** A member of GUILD only. */
const BEA: FakeUser = { id: '200000000000000021', username: 'bea' };
/** A member of both served servers. */
const CAL: FakeUser = { id: '200000000000000022', username: 'cal' };
/** A member of no served server. */
const DAN: FakeUser = { id: '200000000000000023', username: 'dan' };
/** A member of both, whose DMs are asked about in a button press. */
const EVE: FakeUser = { id: '200000000000000024', username: 'eve' };

let world: World;

beforeAll(async () => {
  world = await createWorld({ guilds: [{ id: GUILD2, channelId: CHANNEL2 }] });
  for (const user of [ANA, BEA, CAL, EVE]) world.fake.addMember(GUILD, user);
  for (const user of [CAL, EVE]) world.fake.addMember(GUILD2, user);
  await world.startBot({ databasePath: ':memory:', guildIds: [GUILD, GUILD2] });
});

afterAll(async () => {
  await world?.stop();
});

type Body = {
  content?: string;
  embeds?: unknown[];
  components?: unknown[];
  message_reference?: { message_id?: string };
  allowed_mentions?: { parse?: string[]; replied_user?: boolean };
};

/** A message the bot posted in a channel. */
const postedIn = (channelId: string) => (r: FakeRequest) =>
  r.method === 'POST' && r.path === `/channels/${channelId}/messages`;
/** The bot's reply to a message. */
const replyTo = (message: FakeMessage) => (r: FakeRequest) =>
  postedIn(String(message.channel_id))(r) && (r.body as Body).message_reference?.message_id === message.id;
/** Any request of the bot about a message (a reply to it, an edit of it). */
const about = (message: FakeMessage) => (r: FakeRequest) =>
  replyTo(message)(r) || r.path.includes(`/${message.id}`);

/** Posts a message and waits for the bot's reply to it. */
async function ask(post: FakePost, what: string): Promise<{ sent: FakeMessage; answer: Body }> {
  const sent = world.fake.say(post);
  const request = await world.fake.waitFor(replyTo(sent), what);
  return { sent, answer: request.body as Body };
}

const mention = (line: string, extra: Partial<FakePost> = {}): FakePost => ({
  content: `${MENTION} ${line}`,
  mentions: [APP_ID],
  ...extra,
});

/** Everything a message shows, as one string. */
const shown = (body: Body) => `${body.content ?? ''} ${text(body as Record<string, unknown>)}`;

/** The reply of a served question: no refusal, no unknown command. */
function expectServed(body: Body) {
  expect(shown(body)).not.toContain(OUTSIDE_MESSAGE);
  expect(shown(body)).not.toMatch(/Unknown command/i);
}

describe('@mentions of Scout in a served server', () => {
  it('answers a mention as a reply to it, reading the line without the mention, pinging nobody', async () => {
    const { sent, answer } = await ask(mention('lists'), 'the lists answer');
    expect(answer.message_reference?.message_id).toBe(sent.id);
    expectServed(answer);
    expect(answer.allowed_mentions).toEqual({ parse: [], replied_user: false });

    // The nickname form of the mention, and /scout before the line, read the same.
    const help = await ask({ ...mention('/scout help'), content: `<@!${APP_ID}> /scout help` }, 'help');
    expectServed(help.answer);
    expect(shown(help.answer)).toMatch(/creators/);
    const credits = await ask(mention('credits'), 'credits');
    expectServed(credits.answer);
    expect(shown(credits.answer)).toMatch(/credit/i);
  });

  it('answers a plain sentence with a short answer', async () => {
    const { answer } = await ask(mention('show me fitness creators in France please'), 'a sentence');
    expect(shown(answer).length).toBeGreaterThan(0);
    expect(shown(answer)).not.toContain(OUTSIDE_MESSAGE);
  });

  it('gives a short hint to a mention with nothing after it, or nothing but emoji', async () => {
    for (const content of [MENTION, `${MENTION}   `, `${MENTION} 🎉🎉🔥`]) {
      const { answer } = await ask({ content, mentions: [APP_ID] }, `the hint to ${JSON.stringify(content)}`);
      // The notice escapes its colon for Discord's markdown.
      expect(shown(answer)).toContain(WORDLESS.split(':')[0]);
      expect(shown(answer).length).toBeLessThan(400);
      // Meant for its author alone: a reply that pings only them (a channel message cannot be ephemeral).
      expect(answer.allowed_mentions).toEqual({ parse: [], replied_user: true });
    }
  });

  it('answers 4,000 characters of junk shortly, and still answers the next mention', async () => {
    const junk = `${MENTION} ${'zq#%&!'.repeat(667)}`.slice(0, 4000);
    const { answer } = await ask({ content: junk, mentions: [APP_ID] }, 'the junk answer');
    expect(shown(answer).length).toBeLessThan(400);
    const after = await ask(mention('credits'), 'the next answer');
    expectServed(after.answer);
  });

  it('a button on a mention answer works as on a slash answer: Next updates the message', async () => {
    // The answer is a message the bot posted, not an interaction's reply: the press's update edits it all the same.
    const { fake } = world;
    const sent = fake.say(mention('creators search category:Fitness'));
    const page1 = await messageOf(fake.waitFor(replyTo(sent), 'page 1'));
    expect(titles(page1).length).toBeGreaterThan(0);
    const next = press(fake, page1, /^Next/);
    const page2 = await messageOf(fake.waitFor(edited(next.token), 'page 2'));
    expect(titles(page2).length).toBeGreaterThan(0);
    expect(titles(page2)).not.toEqual(titles(page1));
    expect(JSON.stringify(page2.components)).toContain('Page 2');
  });

  it('answers a mention in another served server in its channel', async () => {
    const { sent, answer } = await ask(
      mention('credits', { guildId: GUILD2, channelId: CHANNEL2 }),
      'GUILD2',
    );
    expect(sent.channel_id).toBe(CHANNEL2);
    expectServed(answer);
  });
});

describe('messages Scout never answers', () => {
  it('ignores its own messages, other bots, webhooks and system messages, and messages not mentioning it', async () => {
    const { fake } = world;
    const ignored = [
      fake.say(mention('lists', { author: { id: APP_ID, username: 'scout', bot: true } })),
      fake.say(mention('lists', { author: { id: '200000000000000090', username: 'otherbot', bot: true } })),
      fake.say(
        mention('lists', {
          webhookId: '700000000000000001',
          author: { id: '700000000000000001', username: 'hook' },
        }),
      ),
      fake.say(mention('lists', { type: 7 })),
      fake.say({ content: 'lists', mentions: [] }),
      fake.say({ content: '@everyone lists', mentionEveryone: true }),
    ];
    // Messages are handled in the order they arrive: once a later mention is answered, the others were seen.
    await ask(mention('credits'), 'the answer after them');
    for (const message of ignored) expect(fake.requests.filter(about(message))).toEqual([]);
  });

  it('ignores edits and deletions of messages, even ones that come to mention it', async () => {
    const { fake } = world;
    const plain = fake.say({ content: 'nothing for Scout' });
    fake.editMessage(plain.id, `${MENTION} lists`);
    const asked = fake.say(mention('credits'));
    await fake.waitFor(replyTo(asked), 'the answer to the mention');
    fake.deleteMessage(asked.id);
    await ask(mention('credits'), 'the answer after the deletion');
    expect(fake.requests.filter(about(plain))).toEqual([]);
    expect(fake.requests.filter(replyTo(asked))).toHaveLength(1);
  });
});

describe('direct messages to Scout', () => {
  it('answers a member of a served server in the DM', async () => {
    const { answer } = await ask({ content: 'credits', author: BEA, guildId: null }, 'the DM answer');
    expectServed(answer);
    expect(shown(answer)).toMatch(/credit/i);
    const lists = await ask({ content: '/scout lists', author: BEA, guildId: null }, 'lists in a DM');
    expectServed(lists.answer);
    expect(lists.sent.channel_id).toBe(world.fake.dmChannelOf(BEA.id));
    const asked = world.fake.requests.filter(
      (r) => r.method === 'GET' && r.path === `/guilds/${GUILD}/members/${BEA.id}`,
    );
    // The membership is read from Discord once, then kept a while.
    expect(asked).toHaveLength(1);
  });

  it('refuses someone in no served server, as anyone outside', async () => {
    const { answer } = await ask({ content: 'lists', author: DAN, guildId: null }, 'the refusal');
    expect(shown(answer)).toContain(OUTSIDE_MESSAGE);
  });

  it('asks a member of several served servers which one, then answers for it', async () => {
    const { fake } = world;
    const { sent, answer } = await ask({ content: 'credits', author: CAL, guildId: null }, 'the choice');
    expect(answer.content).toMatch(/which one/);
    const choice = await messageOf(Promise.resolve({ body: answer } as FakeRequest));
    const chosen = press(fake, { ...choice, channel_id: sent.channel_id }, /Scout test guild 0002/, CAL, {
      guildId: null,
      channelId: String(sent.channel_id),
    });
    const update = await fake.waitFor(
      (r) => r.method === 'POST' && r.path.startsWith(`/interactions/${chosen.id}/`),
      'the choice taken',
    );
    expect(JSON.stringify(update.body)).toContain('Scout test guild 0002');
    // The waiting DM is answered then, and the next one at once.
    const answered = await fake.waitFor(
      (r) => replyTo(sent)(r) && !String((r.body as Body).content).includes('which one'),
      'the DM answered',
    );
    expectServed(answered.body as Body);
    const again = await ask({ content: 'credits', author: CAL, guildId: null }, 'the next DM');
    expect(again.answer.content ?? '').not.toMatch(/which one/);
    expectServed(again.answer);
  });

  it('answers for the server the person last used Scout in', async () => {
    const { fake } = world;
    const run = slash(fake, 'credits', 'show', [], { user: EVE, guildId: GUILD2, channelId: CHANNEL2 });
    await fake.waitFor(answered(run.token), 'the slash command in GUILD2');
    const { answer } = await ask({ content: 'credits', author: EVE, guildId: null }, 'the DM');
    expect(answer.content ?? '').not.toMatch(/which one/);
    expectServed(answer);
  });

  it('a button on a DM answer acts in the server of the DM', async () => {
    const { fake } = world;
    const sent = fake.say({ content: 'creators search category:Fitness', author: BEA, guildId: null });
    const page1 = await messageOf(fake.waitFor(replyTo(sent), 'page 1 in the DM'));
    const dm = { guildId: null, channelId: String(sent.channel_id) };
    const next = press(fake, { ...page1, channel_id: sent.channel_id }, /^Next/, BEA, dm);
    const page2 = await messageOf(fake.waitFor(edited(next.token), 'page 2 in the DM'));
    expect(titles(page2)).not.toEqual(titles(page1));
    // The page's token is found only in the tenant that made it: the press acted in GUILD, as the DM did.
    expect(JSON.stringify(page2.components)).toContain('Page 2');
  });
});
