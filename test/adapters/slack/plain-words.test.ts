/**
 * Plain words on every Slack surface, through real Bolt in HTTP mode against the fake Slack Web API and the
 * sandbox: `/scout find fitness creators in France`, the same sentence as a direct message and as an @mention, are
 * each shown first (the exact line it reads as, its cost, Run and Edit) with nothing sent to the service; Run spends
 * once and shows what typing the exact line shows; a write is done only by Run; a free read runs at once; a DM
 * follows up on its last answer; Edit opens the command's modal filled in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SlackAdapter } from '../../../src/adapters/slack/index.js';
import { createManualClock } from '../../../src/core/clock.js';
import { utcMonth } from '../../../src/core/credits.js';
import {
  type ApiCall,
  blockActionPayload,
  slashCommandBody,
  viewSubmissionPayload,
} from '../../fakes/slack-api.js';
import {
  type Block,
  buttonIds,
  cardTitles,
  elementsOf,
  responseTo,
  sendForm,
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
const KEY = 'slack-test-key-0001';
const ana = { platform: 'slack' as const, workspaceId: TEAM, userId: ANA };

const clock = createManualClock(Date.now());
let world: World;
let adapter: SlackAdapter;
const speaker = createSpeaker(
  () => adapter.port,
  { team: TEAM, user: ANA, dm: DM, channel: CHANNEL },
  1_700_200_000,
);
const { nextTs, dm } = speaker;
/** An @mention of Scout by Ana in #general. */
const mention = (text: string) => speaker.mention(`<@UBOT> ${text}`);

beforeAll(async () => {
  world = await startWorld({}, 10_000, {}, clock);
  adapter = await startBotAdapter(world.app, world.slack);
});

afterAll(async () => {
  await adapter.stop();
  await world.stop();
});

/** Moves past the repeat window, so that the same line runs again. */
const later = () => clock.advance(11_000);

/** The service requests from `from` on. */
const since = (from: number) => world.sandbox.requests(KEY).slice(from);
const searches = (from: number) => since(from).filter((r) => r.path === '/api/v2/creators/search');
const purchases = (from: number) => since(from).filter((r) => r.path === '/api/v2/creators/get');
const spent = () => world.app.store.ledger.spent(ana, utcMonth(world.app.clock.now()));
const listNames = async () => (await world.app.service.crm.listLists()).data.lists.map((list) => list.name);

/** Every Web API call and service request made from now on. */
function watch() {
  const calls = world.slack.calls.length;
  const requests = world.sandbox.requests(KEY).length;
  return {
    requests,
    calls: () => world.slack.calls.slice(calls),
    posts: () =>
      world.slack.calls
        .slice(calls)
        .filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.postEphemeral'),
  };
}

/** A message's text and blocks, as one string to search. */
const textOf = (message: { text?: unknown; blocks?: unknown }) =>
  `${String(message.text)}\n${JSON.stringify(message.blocks ?? [])}`;
const blocksOf = (message: { blocks?: unknown }) => (message.blocks ?? []) as Block[];

/** The labels of a message's buttons, in order. */
const labelsOf = (blocks: readonly Block[]) =>
  elementsOf(blocks)
    .filter((element) => element.type === 'button')
    .map((element) => element.text?.text ?? '');

/** The creators a message shows: its cards' links (card sections' or carousel cards' titles), in order. */
const creatorsOf = (blocks: readonly Block[]) =>
  [
    ...blocks
      .filter((block) => block.type === 'section')
      .map((block) => (block.text as { text?: string } | undefined)?.text ?? ''),
    ...cardTitles(blocks.filter((block) => block.type === 'carousel')),
  ]
    .map((text) => /<(https?:[^|>]+)\|/.exec(text)?.[1])
    .filter((link): link is string => link !== undefined);

/** `/scout <text>` from Ana in #general; resolves with its answer, at the response_url `id`. */
async function slash(text: string, id: string) {
  const { status } = await sendForm(
    adapter.port,
    slashCommandBody({ text, responseUrl: world.slack.responseUrl(id), channelId: CHANNEL }),
  );
  expect(status).toBe(200);
  return responseTo(world.slack, id);
}

/** The first post in `channel` (in the thread `threadTs` if given) made since `seen` started. */
const postIn = (seen: ReturnType<typeof watch>, channel: string, threadTs?: string): Promise<ApiCall> =>
  world.slack.waitFor(() =>
    seen
      .posts()
      .find((c) => c.args.channel === channel && (threadTs === undefined || c.args.thread_ts === threadTs)),
  );

/** Where a pressed message is: its channel, whether it is ephemeral, and the thread it is a reply in. */
interface Pressed {
  channelId: string;
  ephemeral?: boolean;
  ts?: string;
  threadTs?: string;
}

/** Ana presses `actionId` on a message at `where`; answers to its response_url go to `id`. */
async function press(actionId: string, id: string, where: Pressed) {
  const payload = blockActionPayload({
    actionId,
    responseUrl: world.slack.responseUrl(id),
    channelId: where.channelId,
    ephemeral: where.ephemeral === true,
  });
  const ts = where.ts ?? '1700000000.000100';
  const thread = where.threadTs === undefined ? {} : { thread_ts: where.threadTs };
  const { status } = await sendPayload(adapter.port, {
    ...payload,
    container: { ...(payload.container as object), message_ts: ts, ...thread },
    message: { type: 'message', ts, text: '', ...thread },
  });
  expect(status).toBe(200);
}

/** Checks a preview of the France search: what it read, its cost, Run and Edit; returns Run's and Edit's ids. */
function expectSearchPreview(message: { text?: unknown; blocks?: unknown }) {
  const said = textOf(message);
  expect(said).toContain('I read this as');
  expect(said).toMatch(/creators search/);
  expect(said).toContain('category:Fitness');
  expect(said).toContain('country:France');
  expect(said).toMatch(/It will cost up to \*?\d+ credits?\*?\./);
  const labels = labelsOf(blocksOf(message));
  expect(labels).toEqual([expect.stringMatching(/^Run \(up to \d+ credits?\)$/), 'Edit']);
  const [run] = buttonIds(blocksOf(message), 'Run');
  const [edit] = buttonIds(blocksOf(message), 'Edit');
  return { run: run as string, edit: edit as string };
}

describe('a paid search in plain words is shown first, on every surface', () => {
  it('/scout: shown to its author alone, nothing sent to the service, nothing spent', async () => {
    const seen = watch();
    const before = await spent();
    const answer = await slash('find fitness creators in France', 'slash-preview');
    expect(answer.body.response_type).toBe('ephemeral');
    expectSearchPreview(answer.body);
    expect(since(seen.requests)).toEqual([]);
    expect(await spent()).toBe(before);
  });

  it('a direct message: shown in the DM, nothing sent to the service, nothing spent', async () => {
    const seen = watch();
    const before = await spent();
    await dm('find fitness creators in France');
    const answer = await postIn(seen, DM);
    expect(answer.args.thread_ts).toBeUndefined();
    expectSearchPreview(answer.args);
    expect(since(seen.requests)).toEqual([]);
    expect(await spent()).toBe(before);
  });

  it('an @mention: shown in its thread to its author, nothing sent to the service, nothing spent', async () => {
    const seen = watch();
    const before = await spent();
    const ts = await mention('find fitness creators in France');
    const answer = await postIn(seen, CHANNEL, ts);
    expect(answer.method).toBe('chat.postEphemeral');
    expect(answer.args.user).toBe(ANA);
    expectSearchPreview(answer.args);
    expect(since(seen.requests)).toEqual([]);
    expect(await spent()).toBe(before);
  });
});

describe('Run', () => {
  it('on /scout: the creator cards, one search and one purchase; the same Run again spends nothing', async () => {
    later();
    const preview = await slash('find fitness creators in France', 'run-preview');
    const { run } = expectSearchPreview(preview.body);
    const seen = watch();
    const before = await spent();
    await press(run, 'run-pressed', { channelId: CHANNEL, ephemeral: true });
    const results = await world.slack.waitFor(() =>
      world.slack.responses.find((r) => r.id === 'run-pressed' && creatorsOf(blocksOf(r.body)).length > 0),
    );
    expect(results.body.response_type).toBe('in_channel');
    expect(creatorsOf(blocksOf(results.body)).length).toBeGreaterThan(0);
    expect(buttonIds(blocksOf(results.body), 'Details').length).toBeGreaterThan(0);
    expect(searches(seen.requests)).toHaveLength(1);
    expect(purchases(seen.requests)).toHaveLength(1);
    const paid = await spent();
    expect(paid).toBeGreaterThan(before);

    // The same Run delivered again (a double click, a retry): nothing more is sent or spent.
    const again = watch();
    await press(run, 'run-again', { channelId: CHANNEL, ephemeral: true });
    const answer = await responseTo(world.slack, 'run-again');
    // A used Run is refused before it is read: "Already done." (the guard's own "Already confirmed." answers a
    // second press racing the first).
    expect(String(answer.body.text)).toMatch(/Already (done|confirmed)\./);
    expect(since(again.requests)).toEqual([]);
    expect(await spent()).toBe(paid);

    // What Run showed is what typing the exact line shows.
    later();
    const typed = await slash('creators search category:Fitness country:France', 'run-typed');
    expect(creatorsOf(blocksOf(typed.body))).toEqual(creatorsOf(blocksOf(results.body)));
  });

  it('on a DM: the cards in the DM', async () => {
    later();
    const seen = watch();
    await dm('find fitness creators in France');
    const preview = await postIn(seen, DM);
    const { run } = expectSearchPreview(preview.args);
    const pressed = watch();
    await press(run, 'dm-run', { channelId: DM, ts: nextTs() });
    const results = await world.slack.waitFor(() =>
      world.slack.responses.find((r) => r.id === 'dm-run' && creatorsOf(blocksOf(r.body)).length > 0),
    );
    expect(results.body.response_type).toBe('in_channel');
    expect(searches(pressed.requests)).toHaveLength(1);
  });
});

describe('a write in plain words', () => {
  it('a DM: shown first, the list made only by Run', async () => {
    expect(await listNames()).not.toContain('Summer Push');
    const seen = watch();
    await dm('create a list called Summer Push');
    const preview = await postIn(seen, DM);
    const said = textOf(preview.args);
    expect(said).toContain('I read this as');
    expect(said).toMatch(/lists create/);
    expect(said).toContain('Summer Push');
    const [run] = buttonIds(blocksOf(preview.args), 'Run: /scout lists create');
    expect(run).toBeDefined();
    expect(await listNames()).not.toContain('Summer Push');
    await press(run as string, 'dm-write', { channelId: DM, ts: nextTs() });
    await responseTo(world.slack, 'dm-write');
    expect(await listNames()).toContain('Summer Push');
  });
});

describe('a free read in plain words', () => {
  it('a mention: run at once, in its thread, beginning with what was understood', async () => {
    const seen = watch();
    const ts = await mention('show me my lists');
    const answer = await postIn(seen, CHANNEL, ts);
    expect(String(answer.args.text)).toMatch(/^(:\w+: )?Understood as/);
    expect(textOf(answer.args)).toContain('lists show');
    expect(textOf(answer.args)).not.toContain('I read this as');
  });
});

describe('a DM follows up on its last answer', () => {
  /** Ana's search in words in the DM, and Run pressed on its preview: the results, at the response_url `id`. */
  async function searchAndRun(id: string) {
    later();
    const seen = watch();
    await dm('find fitness creators in France');
    const { run } = expectSearchPreview((await postIn(seen, DM)).args);
    await press(run, id, { channelId: DM, ts: nextTs() });
    return world.slack.waitFor(() =>
      world.slack.responses.find((r) => r.id === id && creatorsOf(blocksOf(r.body)).length > 0),
    );
  }

  it('find, Run, then in Germany instead: the changed search shown first, saying what changed', async () => {
    await searchAndRun('follow-run');
    const changed = watch();
    await dm('in Germany instead');
    const germany = await postIn(changed, DM);
    expect(textOf(germany.args)).toContain('I read this as');
    expect(textOf(germany.args)).toContain('category:Fitness');
    expect(textOf(germany.args)).toContain('country:Germany');
    expect(textOf(germany.args)).toContain('Changed: country France → Germany');
    expect(buttonIds(blocksOf(germany.args), 'Run')).toHaveLength(1);
    expect(since(changed.requests)).toEqual([]);
  });

  // Run is a press: its answer (the results) becomes the conversation's last, so their Details can be named.
  it('find, Run, then details of the second: a creator’s details in the DM', async () => {
    await searchAndRun('details-run');
    const details = watch();
    await dm('details of the second');
    const detail = await postIn(details, DM);
    expect(textOf(detail.args)).not.toMatch(/Unknown command|could not answer/);
    expect(textOf(detail.args)).toMatch(/[Ff]ollowers/);
  });
});

describe('Edit', () => {
  it('on the /scout preview: the creators search modal, country France filled in', async () => {
    later();
    const preview = await slash('find fitness creators in France', 'edit-preview');
    const { edit } = expectSearchPreview(preview.body);
    const seen = watch();
    await press(edit, 'edit-pressed', { channelId: CHANNEL, ephemeral: true });
    const open = await world.slack.waitFor(() => seen.calls().find((c) => c.method === 'views.open'));
    const view = open.args.view as { private_metadata: string; blocks: Block[] };
    expect(JSON.parse(view.private_metadata)).toMatchObject({ family: 'creators', command: 'search' });
    const inputs = JSON.stringify(view.blocks);
    expect(inputs).toContain('France');
    expect(since(seen.requests)).toEqual([]);
  });
});

/** The values a form modal's inputs were filled in with, as a view_submission carries them. */
function filledIn(blocks: readonly Block[]): Record<string, Record<string, unknown>> {
  const values: Record<string, Record<string, unknown>> = {};
  for (const block of blocks) {
    if (block.type !== 'input') continue;
    const element = block.element as {
      type: string;
      action_id: string;
      initial_value?: string;
      initial_option?: { value: string };
      initial_options?: Array<{ value: string }>;
    };
    const value =
      element.initial_option !== undefined
        ? { selected_option: element.initial_option }
        : element.initial_options !== undefined
          ? { selected_options: element.initial_options }
          : { value: element.initial_value ?? null };
    values[block.block_id as string] = { [element.action_id]: { type: element.type, ...value } };
  }
  return values;
}

describe('Edit in a thread', () => {
  it('on a mention’s preview: the form, submitted as filled in, is answered in the mention’s thread', async () => {
    later();
    const seen = watch();
    const ts = await mention('find fitness creators in France');
    const preview = await postIn(seen, CHANNEL, ts);
    const { edit } = expectSearchPreview(preview.args);
    const opening = watch();
    await press(edit, 'thread-edit', { channelId: CHANNEL, ephemeral: true, ts: nextTs(), threadTs: ts });
    const open = await world.slack.waitFor(() => opening.calls().find((c) => c.method === 'views.open'));
    const view = open.args.view as { callback_id: string; private_metadata: string; blocks: Block[] };
    expect(JSON.stringify(view.blocks)).toContain('France');

    const submitted = watch();
    const { status } = await sendPayload(
      adapter.port,
      viewSubmissionPayload({
        callbackId: view.callback_id,
        privateMetadata: view.private_metadata,
        values: filledIn(view.blocks),
      }),
    );
    expect(status).toBe(200);
    const results = await world.slack.waitFor(() =>
      submitted.posts().find((c) => c.args.channel === CHANNEL && creatorsOf(blocksOf(c.args)).length > 0),
    );
    expect(results.args.thread_ts).toBe(ts);
    expect(searches(submitted.requests)).toHaveLength(1);
    // Nothing went atop the channel through the response_url.
    expect(world.slack.responses.filter((r) => r.id === 'thread-edit')).toEqual([]);
  });
});
