/**
 * A request in plain words on each Discord surface, end to end (real discord.js against the fake Discord, the
 * sandbox as the service): `/scout ask request:…`, a direct message and an @mention. A paid search in words is
 * shown first (the line it was read as, its cost, Run and Edit) and nothing is sent to the service or written to
 * the ledger before Run is pressed; Run gives the answer typing that exact line gives, and spends once; a write is
 * done only by Run; a free read runs at once, saying what it understood.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCommands } from '../../../src/adapters/discord/registration.js';
import { createManualClock } from '../../../src/core/clock.js';
import type { FakeMessage, FakeOrigin, FakeRequest, FakeUser } from '../../fakes/discord-fake.js';
import {
  APP_ID,
  answered,
  type Bot,
  buttonId,
  CHANNEL,
  createWorld,
  GUILD,
  KEY,
  messageOf,
  press,
  slash,
  text,
  titles,
  type World,
} from './harness.js';
import { textDisplays } from './layout.js';

const clock = createManualClock(Date.now());
/** The member who asks, on every surface. */
const BEA: FakeUser = { id: '200000000000000031', username: 'bea' };
const WORDS = 'find fitness creators in France';

let world: World;
let bot: Bot | undefined;

beforeAll(async () => {
  world = await createWorld();
  world.fake.addMember(GUILD, BEA);
});

afterAll(async () => {
  await world?.stop();
});

/**
 * A bot of its own for each surface: a new database, so no profile is bought yet and Run's purchase reaches the
 * sandbox. `/scout` is registered with the fake, which then sends only what Discord's client could.
 */
async function freshBot(): Promise<Bot> {
  await bot?.stop();
  bot = await world.startBot({ databasePath: ':memory:', clock });
  const config = { token: 'fake-token', applicationId: APP_ID, apiUrl: world.fake.apiUrl, guildIds: [GUILD] };
  expect(await registerCommands(config, bot.app.chat.catalogue, GUILD)).toBe(1);
  return bot;
}

/** Moves past the repeat window, so the same search runs again rather than being answered as a repeat. */
const later = () => clock.advance(11_000);

const since = (from: number) => world.sandbox.requests(KEY).slice(from);
const searches = (from: number) => since(from).filter((r) => r.path === '/api/v2/creators/search');
const purchases = (from: number) => since(from).filter((r) => r.path === '/api/v2/creators/get');

/** Credits the ledger holds for the server, all time. */
const ledger = () =>
  (bot as Bot).app.store.ledger.spent(
    { platform: 'discord', workspaceId: GUILD },
    { from: new Date(0), to: new Date(clock.now().getTime() + 86_400_000) },
  );

/** The CRM lists in the sandbox. */
const lists = async () =>
  (await (bot as Bot).app.service.crm.listLists()).data.lists.map((list) => list.name);

/** Everything a message shows, as one string. */
const shown = (message: FakeMessage) => `${String(message.content ?? '')} ${text(message)}`;

/** What a message says first: its content, its first embed's text, or its first text display (Components V2). */
const first = (message: FakeMessage) => {
  const [embed] = (message.embeds ?? []) as Array<{ title?: string; description?: string }>;
  const [display] = textDisplays(message);
  return String(message.content ?? '') || embed?.description || embed?.title || display || '';
};

/** The line a preview says it read the words as (`/scout creators search …`), without Discord's code span. */
const readAs = (message: FakeMessage) => /I read this as `?(\/scout [^`]+?)`?\./.exec(shown(message))?.[1];

/** A surface people write on: how a line is said there, and how a button of its answers is pressed. */
interface Surface {
  name: string;
  /** Says `line` there and resolves with the answer. */
  say(line: string): Promise<FakeMessage>;
  /** Presses the button labelled `label` on `message`, an answer said there, and resolves with the answer. */
  press(message: FakeMessage, label: RegExp): Promise<FakeMessage>;
}

/** A press on a message: the press's answer (an update of the message, or a follow-up). */
const pressOn =
  (origin: FakeOrigin) =>
  async (message: FakeMessage, label: RegExp): Promise<FakeMessage> => {
    const pressed = press(world.fake, message, label, BEA, origin);
    return messageOf(world.fake.waitFor(answered(pressed.token), `the answer to ${label}`));
  };

/** `/scout ask request:<line>` in the server's channel. */
const SLASH: Surface = {
  name: '/scout ask',
  async say(line) {
    const asked = world.fake.interact(
      2,
      {
        id: '500000000000000001',
        name: 'scout',
        type: 1,
        options: [{ type: 1, name: 'ask', options: [{ type: 3, name: 'request', value: line }] }],
      },
      { user: BEA },
    );
    return messageOf(world.fake.waitFor(answered(asked.token), `/scout ask ${line}`));
  },
  press: pressOn({}),
};

/** The bot's reply to a message a person posted. */
const replyTo = (sent: FakeMessage) => (r: FakeRequest) =>
  r.method === 'POST' &&
  r.path === `/channels/${String(sent.channel_id)}/messages` &&
  (r.body as { message_reference?: { message_id?: string } }).message_reference?.message_id === sent.id;

/** A reply to a message, as a message in the channel the message is in. */
async function replyOf(sent: FakeMessage, what: string): Promise<FakeMessage> {
  const answer = await messageOf(world.fake.waitFor(replyTo(sent), what));
  return { ...answer, channel_id: sent.channel_id };
}

/** A direct message to Scout. */
const DM: Surface = {
  name: 'a direct message',
  say: (line) => replyOf(world.fake.say({ content: line, author: BEA, guildId: null }), `the DM ${line}`),
  press: (message, label) =>
    pressOn({ guildId: null, channelId: String(message.channel_id) })(message, label),
};

/** An @mention of Scout in the server's channel. */
const MENTION: Surface = {
  name: 'an @mention',
  say: (line) =>
    replyOf(
      world.fake.say({
        content: `<@${APP_ID}> ${line}`,
        mentions: [APP_ID],
        author: BEA,
        channelId: CHANNEL,
      }),
      `the mention ${line}`,
    ),
  press: pressOn({}),
};

/** The exact line typed where the surface types commands: the slash command itself, or the same message. */
const EXACT: Record<string, (line: string) => Promise<FakeMessage>> = {
  [SLASH.name]: async (line) => {
    // The shown line's command as Discord's client sends it: its typed options.
    expect(line).toBe('/scout creators search category:Fitness country:France');
    const typed = slash(
      world.fake,
      'creators',
      'search',
      [
        { type: 3, name: 'category', value: 'Fitness' },
        { type: 3, name: 'country', value: 'France' },
      ],
      { user: BEA },
    );
    return messageOf(world.fake.waitFor(answered(typed.token), line));
  },
  [DM.name]: (line) => DM.say(line),
  [MENTION.name]: (line) => MENTION.say(line),
};

describe.each([SLASH, DM, MENTION])('a paid search in plain words through $name', (surface) => {
  let preview: FakeMessage;
  let ran: FakeMessage;
  let from: number;

  beforeAll(async () => {
    await freshBot();
    later();
  });

  it('is shown first: the line it was read as, its cost, Run and Edit; nothing is sent or spent', async () => {
    from = world.sandbox.requests(KEY).length;
    const spent = await ledger();
    preview = await surface.say(WORDS);
    expect(shown(preview)).toContain('I read this as');
    expect(readAs(preview)).toMatch(/^\/scout creators search /);
    expect(readAs(preview)).toContain('category:Fitness');
    expect(readAs(preview)).toContain('country:France');
    expect(shown(preview)).toMatch(/It will cost up to .*\d+ credits?/);
    expect(buttonId(preview, /^Run \(up to \d+ credits?\)$/)).toBeTruthy();
    expect(buttonId(preview, /^Edit$/)).toBeTruthy();
    expect(titles(preview)).toEqual([]);
    expect(since(from)).toEqual([]);
    expect(await ledger()).toBe(spent);
  });

  it('Run gives the creator cards, with one search and one profile purchase; a second Run spends nothing', async () => {
    ran = await surface.press(preview, /^Run/);
    expect(titles(ran).length).toBeGreaterThan(0);
    expect(searches(from)).toHaveLength(1);
    expect(purchases(from)).toHaveLength(1);
    expect(await ledger()).toBeGreaterThan(0);
    const spent = await ledger();

    const again = await surface.press(preview, /^Run/);
    // A used Run is found used ("Already done."; a press racing the first, "Already confirmed."): nothing runs.
    expect(shown(again)).toMatch(/Already (done|confirmed)\./);
    expect(titles(again)).toEqual([]);
    expect(searches(from)).toHaveLength(1);
    expect(purchases(from)).toHaveLength(1);
    expect(await ledger()).toBe(spent);
  });

  it('Run shows the creators typing the exact line it showed shows', async () => {
    later();
    const line = readAs(preview) as string;
    const typed = await (EXACT[surface.name] as (line: string) => Promise<FakeMessage>)(line);
    // Searched again, not answered as a repeat: the same creators come from the service twice.
    expect(searches(from)).toHaveLength(2);
    expect(titles(typed).length).toBeGreaterThan(0);
    expect(titles(ran)).toEqual(titles(typed));
  });
});

describe('a write and a free read in plain words', () => {
  beforeAll(async () => {
    await freshBot();
    later();
  });

  it('a list made in a DM is shown first and made only by Run', async () => {
    expect(await lists()).not.toContain('Summer Push');
    const preview = await DM.say('create a list called Summer Push');
    expect(readAs(preview)).toMatch(/^\/scout lists create .*Summer Push/);
    expect(buttonId(preview, /^Run: \/scout lists create/)).toBeTruthy();
    expect(await lists()).not.toContain('Summer Push');
    const done = await DM.press(preview, /^Run/);
    expect(shown(done)).toMatch(/Created/);
    expect(await lists()).toContain('Summer Push');
  });

  it('a free read in a mention runs at once, beginning with what was understood', async () => {
    const from = world.sandbox.requests(KEY).length;
    const answer = await MENTION.say('show me my lists');
    // After the notice's icon.
    expect(first(answer)).toMatch(/^\W*Understood as `\/scout lists show`\./);
    expect(shown(answer)).toContain('Fitness Ambassadors');
    expect(since(from).length).toBeGreaterThan(0);
  });
});
