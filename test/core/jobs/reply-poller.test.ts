import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import type { App } from '../../../src/app.js';
import { createReplyPoller, type Jobs } from '../../../src/core/jobs/index.js';
import { renderText } from '../../../src/core/ui/index.js';
import {
  KEY,
  type RecordingOutbound,
  recordedJobs,
  recordingOutbound,
  silentLogger,
  startWorld,
  TEAM,
  until,
  type World,
} from './fixture.js';

let world: World;
const jobs: Jobs[] = [];

const invocation = { actor: LOCAL_ACTOR, channelId: 'general' };
const messageRequests = () =>
  world.sandbox
    .requests(KEY)
    .filter((r) => r.path === '/api/v1/agent/messages' && r.query.direction === 'inbound');

/** The jobs of `app` posting through `outbound`, polling every 10 ms. */
const startJobs = (app: App, outbound: RecordingOutbound): Jobs =>
  recordedJobs(app, outbound, { pollIntervalMs: 10, digestCheckMs: 60_000 }, jobs);

/** A reply arrives a minute later on the shared clock, with a body that names it. */
function replyArrives(body: string, options: { threadId?: string; projectId?: string } = {}) {
  world.clock.advance(60_000);
  return world.sandbox.addInboundReply(TEAM, { ...options, body });
}

const countOf = (outbound: RecordingOutbound, body: string) =>
  outbound.posts.filter((p) => p.text.includes(body)).length;

beforeEach(async () => {
  world = await startWorld('2026-03-10T12:00:00Z');
});
afterEach(async () => {
  for (const running of jobs.splice(0)) await running.stop();
  await world.close();
});

describe('reply notifications', () => {
  it('announce a new reply once, start from now, and thread later replies of the same mail thread', async () => {
    const app = await world.app();
    const outbound = recordingOutbound();
    const subscribed = renderText(await app.dispatcher.text({ ...invocation, text: 'notify' })).text;
    expect(subscribed).toMatch(/\d+ earlier replies exist/);
    const running = startJobs(app, outbound);
    await running.start();
    await until(() => messageRequests().length >= 3, 'idle polls');
    expect(outbound.posts).toEqual([]);
    // Nothing new: each poll is one request for page 1.
    expect(messageRequests().every((r) => r.query.page === '1')).toBe(true);

    const first = replyArrives('First answer: I would love to work with you.');
    await until(() => outbound.posts.length === 1, 'the first notification');
    const post = outbound.posts[0];
    expect(post?.channel).toEqual({ platform: 'terminal', workspaceId: 'local', channelId: 'general' });
    expect(post?.text).toContain(first.creator_name);
    expect(post?.text).toContain(first.subject);
    expect(post?.text).toContain('First answer');
    expect(post?.inThreadOf).toBeUndefined();
    const seenAt = messageRequests().length;
    await until(() => messageRequests().length >= seenAt + 3, 'more polls');
    expect(countOf(outbound, 'First answer')).toBe(1);

    replyArrives('Second answer: my rate is 500.', { threadId: first.thread_id });
    await until(() => outbound.posts.length === 2, 'the threaded notification');
    expect(outbound.posts[1]?.text).toContain('Second answer');
    expect(outbound.posts[1]?.inThreadOf?.messageId).toBe(post?.posted.messageId);

    const show = renderText(post?.reply ?? { nodes: [], visibility: 'channel' }).actions.find(
      (a) => a.label === 'Show conversation',
    );
    const conversation = await app.dispatcher.action({ ...invocation, token: show?.actionId ?? '' });
    expect(renderText(conversation).text).toContain('First answer');
  });

  it('announce nothing twice and miss nothing across a stop without cleanup and a restart', async () => {
    const first = await world.app();
    const before = recordingOutbound('before-');
    await first.dispatcher.text({ ...invocation, text: 'notify' });
    const running = startJobs(first, before);
    await running.start();
    const a = replyArrives('Reply A');
    await until(() => before.posts.length === 1, 'reply A');
    // The process dies while posting B: the post never completes and nothing more is recorded.
    before.hangAfter = 1;
    const b = replyArrives('Reply B');
    replyArrives('Reply C');
    await until(() => before.hung.length === 1, 'the post of B to start');
    await running.stop();
    replyArrives('Reply D (while down)');

    const second = await world.app();
    const after = recordingOutbound('after-');
    await startJobs(second, after).start();
    await until(() => after.posts.length === 3, 'B, C and D after the restart');
    // Threads kept in the database survive the restart: E goes under A's post, F under B's post made after it.
    replyArrives('Reply E, in the thread of A', { threadId: a.thread_id });
    replyArrives('Reply F, in the thread of B', { threadId: b.thread_id });
    await until(() => after.posts.length === 5, 'replies E and F');
    const seenAt = messageRequests().length;
    await until(() => messageRequests().length >= seenAt + 3, 'more polls');
    const all = [...before.posts, ...after.posts];
    for (const body of ['Reply A', 'Reply B', 'Reply C', 'Reply D', 'Reply E', 'Reply F']) {
      expect(
        all.filter((p) => p.text.includes(body)),
        body,
      ).toHaveLength(1);
    }
    const postOf = (body: string) => all.find((p) => p.text.includes(body));
    // B may have reached the platform before the stop: it is tried again with its key, flagged so the platform's
    // Outbound looks for it first. C never started, so it is posted as any new one.
    const [cutOff] = before.hung;
    expect(cutOff).toMatchObject({ key: expect.any(String), mayHaveLanded: false });
    expect(postOf('Reply B')).toMatchObject({ key: cutOff?.key, mayHaveLanded: true });
    expect(postOf('Reply C')).toMatchObject({ key: expect.any(String), mayHaveLanded: false });
    expect(postOf('Reply C')?.key).not.toBe(cutOff?.key);
    expect(postOf('Reply E')?.inThreadOf).toEqual(postOf('Reply A')?.posted);
    expect(postOf('Reply F')?.inThreadOf).toEqual(postOf('Reply B')?.posted);
  });

  it('leave a notification to the Scout posting it, and its later replies with it', async () => {
    const one = await world.app();
    await one.dispatcher.text({ ...invocation, text: 'notify' });
    const pollerOf = (app: App, outbound: RecordingOutbound) =>
      createReplyPoller({
        app,
        outbound: new Map([['terminal', outbound]]),
        logger: silentLogger(),
        clock: world.clock,
      });
    const slow = recordingOutbound('one-');
    slow.hangAfter = 0;
    // Now on the shared clock, so the first Scout's last heartbeat is recent.
    world.sandbox.addInboundReply(TEAM, { body: 'Only once, please' });
    world.sandbox.addInboundReply(TEAM, { body: 'And in order' });
    expect(await pollerOf(one, slow).poll()).toBe(2);
    void pollerOf(one, slow).deliver();
    await until(() => slow.hung.length === 1, 'the first Scout posting');
    // The second may not post the first reply, nor, to keep their order, the second.
    const two = await world.app();
    const other = recordingOutbound('two-');
    expect(await pollerOf(two, other).deliver()).toBe(0);
    expect(other.posts).toEqual([]);
    expect(other.hung).toEqual([]);
  });

  it('leave other projects out of a project subscription and stop after notify off', async () => {
    const app = await world.app();
    const projects = (await app.service.agent.projects()).data.projects;
    const [wanted, other] = projects;
    await app.dispatcher.text({ ...invocation, text: `notify project:${wanted?.id}` });
    const outbound = recordingOutbound();
    const poller = createReplyPoller({
      app,
      outbound: new Map([['terminal', outbound]]),
      logger: silentLogger(),
      clock: world.clock,
    });
    replyArrives('Not this project', { projectId: other?.id ?? '' });
    replyArrives('This project', { projectId: wanted?.id ?? '' });
    expect(await poller.poll()).toBe(1);
    expect(await poller.deliver()).toBe(1);
    expect(outbound.posts[0]?.text).toContain('This project');
    expect(outbound.posts[0]?.text).toContain(wanted?.name);

    // Queued, then the channel stops its notifications before it is posted: it never is.
    replyArrives('Queued before off', { projectId: wanted?.id ?? '' });
    expect(await poller.poll()).toBe(1);
    await app.dispatcher.text({ ...invocation, text: 'notify off' });
    replyArrives('After off', { projectId: wanted?.id ?? '' });
    expect(await poller.poll()).toBe(0);
    expect(await poller.deliver()).toBe(0);
    expect(outbound.posts).toHaveLength(1);
    expect(await app.store.outbox.unposted('reply')).toEqual([]);
  });

  it('backs off when the service says 429, then announces what arrived', async () => {
    const app = await world.app();
    await app.dispatcher.text({ ...invocation, text: 'notify' });
    const outbound = recordingOutbound();
    const poller = createReplyPoller({
      app,
      outbound: new Map([['terminal', outbound]]),
      logger: silentLogger(),
      clock: world.clock,
    });
    replyArrives('Behind a rate limit');
    world.sandbox.injectFaults(KEY, { kind: 'rate-limit', retryAfterSeconds: 0 }, 2);
    await expect(poller.poll()).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(await poller.poll()).toBe(1);
    await poller.deliver();
    expect(countOf(outbound, 'Behind a rate limit')).toBe(1);
  });
});
