/**
 * Through real Bolt in HTTP mode against the fake Slack Web API: Scout hears a direct message in its Messages tab
 * (in a thread too, an assistant thread included) and an @mention in a channel, answers through the same entry as
 * `/scout`, where it was said, and never answers a bot (itself included), an edit or a deletion. The assistant view's
 * new thread gets its suggested prompts; a button on a DM's answer works as on a slash command's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOf, saysSomething } from '../../../src/adapters/slack/conversations.js';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { ASSISTANT_PROMPTS } from '../../../src/adapters/slack/manifest.js';
import { conversationOf, threadOfPress } from '../../../src/adapters/slack/threads.js';
import { WORDLESS as HINT, MESSAGE_MAX, TOO_LONG } from '../../../src/core/chat/index.js';
import { OUTSIDE_MESSAGE } from '../../../src/core/tenancy/index.js';
import { type ApiCall, blockActionPayload } from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  responseTo,
  sendEvent,
  sendPayload,
  startBotAdapter,
  startWorld,
  type World,
} from './helpers.js';
import { createSpeaker } from './said.js';

const TEAM = 'T0001';
const ANA = 'U0001';
const DM = 'D0001';
const CHANNEL = 'C0001';

let world: World;
let adapter: SlackAdapter;
const { nextTs, dm, mention } = createSpeaker(
  () => adapter.port,
  { team: TEAM, user: ANA, dm: DM, channel: CHANNEL },
  1_700_100_000,
);

beforeAll(async () => {
  world = await startWorld();
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

/** Every Web API call and service request made from now on. */
function watch() {
  const calls = world.slack.calls.length;
  const requests = world.sandbox.requests().length;
  return {
    calls: () => world.slack.calls.slice(calls),
    posts: () =>
      world.slack.calls
        .slice(calls)
        .filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.postEphemeral'),
    serviceRequests: () => world.sandbox.requests().length - requests,
  };
}

/** The first post (message or ephemeral) in `channel` made after `seen` started, in the thread `threadTs` if given. */
const postIn = (seen: ReturnType<typeof watch>, channel: string, threadTs?: string): Promise<ApiCall> =>
  world.slack.waitFor(() =>
    seen
      .posts()
      .find(
        (c) => c.args.channel === channel && (threadTs === undefined ? true : c.args.thread_ts === threadTs),
      ),
  );

const textOf = (call: ApiCall) => `${String(call.args.text)}\n${JSON.stringify(call.args.blocks ?? [])}`;

describe('direct messages', () => {
  it('answers a DM in the DM, posted for the DM (not ephemeral), at the top of it', async () => {
    const seen = watch();
    await dm('help');
    const answer = await postIn(seen, DM);
    expect(answer.method).toBe('chat.postMessage');
    expect(answer.args.thread_ts).toBeUndefined();
    expect(textOf(answer)).toMatch(/Scout/);
    expect(textOf(answer)).not.toMatch(/Unknown command|could not answer/);
  });

  it('answers a DM in a thread in that thread, through the same entry as /scout', async () => {
    const seen = watch();
    const root = nextTs();
    await dm('credits', { thread_ts: root });
    const answer = await postIn(seen, DM);
    expect(answer.method).toBe('chat.postMessage');
    expect(answer.args.thread_ts).toBe(root);
    expect(textOf(answer)).not.toMatch(/Unknown command|could not answer/);
  });

  it('reads a plain sentence without failing: a short answer in the DM', async () => {
    const seen = watch();
    await dm('could you find me some fitness creators in France please?');
    const answer = await postIn(seen, DM);
    expect(textOf(answer)).not.toMatch(/could not answer/);
    expect(String(answer.args.text).length).toBeLessThan(4000);
  });

  it('answers 4,000 characters of junk with a short note, sending the service nothing', async () => {
    const seen = watch();
    const junk = Array.from({ length: 4000 }, (_, i) => '#$%&*x9 '[i % 8]).join('');
    await dm(junk);
    const answer = await postIn(seen, DM);
    expect(String(answer.args.text)).toContain(TOO_LONG);
    expect(seen.serviceRequests()).toBe(0);
    // Emoji and punctuation only: the short hint.
    const again = watch();
    await dm(':tada: :wave: !!! 🎉');
    expect(String((await postIn(again, DM)).args.text)).toContain(HINT);
    expect(again.posts()).toHaveLength(1);
  });

  it('refuses a DM from outside the tenant, with no service request', async () => {
    const seen = watch();
    await dm('lists', {}, 'TFOREIGN01');
    const answer = await postIn(seen, DM);
    expect(String(answer.args.text)).toContain(OUTSIDE_MESSAGE);
    expect(seen.serviceRequests()).toBe(0);
    // A guest of another organisation (their own team elsewhere, the workspace in no Grid org) likewise.
    const guest = watch();
    await dm('lists', { user: 'U0GUEST', team: 'TOTHER01', user_team: 'TOTHER01' });
    expect(String((await postIn(guest, DM)).args.text)).toContain(OUTSIDE_MESSAGE);
    expect(guest.serviceRequests()).toBe(0);
  });

  it('answers no bot (Scout itself included), no edit, no deletion, no join: only the person after them', async () => {
    const seen = watch();
    await dm('help', { user: 'UBOT', bot_id: 'BBOT' });
    await dm('help', { user: 'U0OTHERBOT', bot_id: 'B0OTHER', app_id: 'A0OTHER' });
    await dm('help', { subtype: 'bot_message', bot_id: 'B0OTHER', user: undefined });
    await dm('', {
      subtype: 'message_changed',
      user: undefined,
      message: { type: 'message', user: ANA, text: 'help', ts: '1700000000.000100' },
      previous_message: { type: 'message', user: ANA, text: 'hepl', ts: '1700000000.000100' },
    });
    await dm('', { subtype: 'message_deleted', user: undefined, deleted_ts: '1700000000.000100' });
    await dm(`<@${ANA}> has joined the channel`, { subtype: 'channel_join' });
    await sendEvent(adapter.port, TEAM, {
      type: 'app_mention',
      channel: CHANNEL,
      user: 'U0OTHERBOT',
      bot_id: 'B0OTHER',
      text: '<@UBOT> help',
      ts: nextTs(),
    });
    // The one message of a person, after all of them: its answer is the only post, and nobody else was asked about.
    const root = nextTs();
    await dm('help', { thread_ts: root });
    await postIn(seen, DM, root);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.posts()).toHaveLength(1);
    const asked = seen.calls().filter((c) => c.method === 'users.info');
    expect(asked.every((c) => c.args.user === ANA)).toBe(true);
  });
});

describe('mentions in a channel', () => {
  it('answers in the mention’s thread, the mention taken out of the line', async () => {
    const seen = watch();
    const ts = await mention('<@UBOT> creators search category:Fitness');
    const answer = await postIn(seen, CHANNEL, ts);
    expect(answer.method).toBe('chat.postMessage');
    expect(textOf(answer)).not.toMatch(/Unknown command|could not answer/);
    expect(buttonIds((answer.args.blocks ?? []) as Block[], 'Next').length).toBeGreaterThan(0);
  });

  it('answers in the thread a mention was made in, privately what is its author’s alone', async () => {
    const seen = watch();
    const root = nextTs();
    await mention('<@UBOT|scout> credits', { thread_ts: root });
    const answer = await postIn(seen, CHANNEL, root);
    expect(textOf(answer)).not.toMatch(/Unknown command|could not answer/);
    // Spend is the author's own: ephemeral in the thread, for Ana.
    expect(answer.method).toBe('chat.postEphemeral');
    expect(answer.args.user).toBe(ANA);
  });

  it('gives a mention with nothing after it a short hint, to its author only', async () => {
    const seen = watch();
    const ts = await mention('<@UBOT>   ');
    const answer = await postIn(seen, CHANNEL, ts);
    expect(answer.method).toBe('chat.postEphemeral');
    expect(answer.args.user).toBe(ANA);
    expect(String(answer.args.text)).toContain(HINT);
    expect(seen.serviceRequests()).toBe(0);
  });

  it('refuses a guest of another organisation in its thread, privately', async () => {
    const seen = watch();
    const ts = await mention('<@UBOT> lists', { user: 'U0GUEST', team: 'TOTHER01', user_team: 'TOTHER01' });
    const answer = await postIn(seen, CHANNEL, ts);
    expect(answer.method).toBe('chat.postEphemeral');
    expect(answer.args.user).toBe('U0GUEST');
    expect(String(answer.args.text)).toContain(OUTSIDE_MESSAGE);
    expect(seen.serviceRequests()).toBe(0);
  });
});

describe('the assistant view', () => {
  it('sets the suggested prompts of a new assistant thread, and answers a message in it once', async () => {
    const seen = watch();
    const thread = nextTs();
    await sendEvent(adapter.port, TEAM, {
      type: 'assistant_thread_started',
      assistant_thread: {
        user_id: ANA,
        channel_id: DM,
        thread_ts: thread,
        context: { channel_id: CHANNEL, team_id: TEAM, enterprise_id: null },
      },
    });
    const set = await world.slack.waitFor(() =>
      seen.calls().find((c) => c.method === 'assistant.threads.setSuggestedPrompts'),
    );
    expect(set.args.channel_id).toBe(DM);
    expect(set.args.thread_ts).toBe(thread);
    const prompts = set.args.prompts as Array<{ title: string; message: string }>;
    expect(prompts.map((p) => p.message)).toEqual(ASSISTANT_PROMPTS);
    expect(prompts).toHaveLength(3);

    await dm('lists', { thread_ts: thread });
    const answer = await postIn(seen, DM, thread);
    expect(answer.method).toBe('chat.postMessage');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.posts()).toHaveLength(1);
  });
});

describe('buttons on these answers', () => {
  it('Next on a DM’s search results replaces them with the next page', async () => {
    const seen = watch();
    await dm('creators search category:Fitness');
    const answer = await postIn(seen, DM);
    const [next] = buttonIds((answer.args.blocks ?? []) as Block[], 'Next');
    expect(next).toBeDefined();
    const press = blockActionPayload({
      actionId: next as string,
      responseUrl: world.slack.responseUrl('dm-next'),
      channelId: DM,
    });
    await sendPayload(adapter.port, press);
    const page = await responseTo(world.slack, 'dm-next');
    expect(page.body.replace_original).toBe(true);
    expect(JSON.stringify(page.body.blocks)).not.toBe(JSON.stringify(answer.args.blocks));
    expect(String(page.body.text)).not.toMatch(/could not answer|Already done/);
  });

  it('a press on an answer in a mention’s thread answers in that thread, not atop the channel', async () => {
    const seen = watch();
    // Another search than the mention above: the same one again within the repeat window is told it is done.
    const ts = await mention('<@UBOT> creators search category:Fitness country:France');
    const answer = await postIn(seen, CHANNEL, ts);
    const blocks = (answer.args.blocks ?? []) as Block[];
    // A button whose answer is a new message (not the page replaced): a card's Details or Add to list.
    const [other] = [...buttonIds(blocks, 'Add to list'), ...buttonIds(blocks, 'Details')];
    expect(other).toBeDefined();
    const pressed = blockActionPayload({
      actionId: other as string,
      responseUrl: world.slack.responseUrl('thread-press'),
      channelId: CHANNEL,
    });
    const inThread = {
      ...pressed,
      container: { ...(pressed.container as object), message_ts: '1700000000.000100', thread_ts: ts },
      message: { type: 'message', ts: '1700000000.000100', thread_ts: ts, text: '' },
    };
    const press = watch();
    await sendPayload(adapter.port, inThread);
    // The list picker: ephemeral, for the person who pressed, in the thread.
    const reply = await postIn(press, CHANNEL, ts);
    expect(reply.method).toBe('chat.postEphemeral');
    expect(reply.args.user).toBe(ANA);
    expect(textOf(reply)).not.toMatch(/could not answer/);
    expect(
      world.slack.responses.filter((r) => r.id === 'thread-press' && r.body.replace_original !== true),
    ).toEqual([]);
  });
});

describe('reading a message', () => {
  it('takes Scout’s mentions out, keeps other people’s, and reverses Slack’s markup', () => {
    expect(requestOf('<@UBOT> credits cap <@U0BOB|bob> 6', 'UBOT')).toBe('credits cap <@U0BOB> 6');
    expect(requestOf('hey <@UBOT|scout>, lists &amp; more', 'UBOT')).toBe('hey , lists & more');
    expect(requestOf('<@UOTHERBOT> lists', undefined)).toBe('lists');
    expect(requestOf('<@UBOT>', 'UBOT')).toBe('');
    expect(saysSomething('')).toBe(false);
    expect(saysSomething(':tada: 🎉 !!')).toBe(false);
    expect(saysSomething('lists')).toBe(true);
    expect(MESSAGE_MAX).toBeLessThan(4000);
  });

  it('names a DM, a DM’s thread and a mention’s thread as conversations of their own', () => {
    const userId = 'U0001';
    expect(conversationOf({ channelId: DM, threadTs: undefined, im: true, userId })).toBe('slack:im:D0001');
    expect(conversationOf({ channelId: DM, threadTs: '17.1', im: true, userId })).toBe('slack:im:D0001:17.1');
    // In a channel's thread, each person's own.
    expect(conversationOf({ channelId: CHANNEL, threadTs: '17.1', im: false, userId })).toBe(
      'slack:C0001:17.1:U0001',
    );
    expect(conversationOf({ channelId: CHANNEL, threadTs: '17.1', im: false, userId: 'U0002' })).toBe(
      'slack:C0001:17.1:U0002',
    );
    expect(threadOfPress({ message: { ts: '17.2', thread_ts: '17.1' } })).toBe('17.1');
    expect(threadOfPress({ message: { ts: '17.1', thread_ts: '17.1' } })).toBeUndefined();
    expect(threadOfPress({ container: { message_ts: '17.3', thread_ts: '17.1' } })).toBe('17.1');
  });
});
