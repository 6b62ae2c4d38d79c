/**
 * Three Scout processes (`npm start`'s entry point) in Slack HTTP mode on one PostgreSQL database and one Redis,
 * against the service's sandbox and a fake Slack, as replicas behind a load balancer:
 * - a button made through one replica works through another, and a double press spread over two charges once;
 * - reply notifications are announced exactly once, also when the replica running the background jobs is killed
 *   with SIGKILL while replies arrive: another takes the jobs over;
 * - 100 people searching at once, their requests spread round-robin, all get results, and the service never sees
 *   more than its allowance in any minute.
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { SECRET } from '../adapters/slack/helpers.js';
import { freshLocation } from '../core/store/engine.js';
import {
  blockActionPayload,
  type FakeSlack,
  signedHeaders,
  slashCommandBody,
  startFakeSlack,
} from '../fakes/slack-api.js';
import { REDIS_URL, type ScoutProcess, startScout, until } from './processes.js';

const KEY = `replicas-key-${Date.now()}`;
const TEAM = 'T0001';
const SANDBOX_TEAM = 'team_replicas';
const CHANNEL = 'C0REPLICAS';
const ALLOWANCE = 100;

type Replica = ScoutProcess & { readonly name: string };

let sandbox: Sandbox;
let slack: FakeSlack;
let drop: () => Promise<void> = async () => {};
const replicas: Replica[] = [];

async function startReplica(name: string, databaseUrl: string): Promise<Replica> {
  const scout = await startScout({
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    SCOUT_API_KEY: KEY,
    SCOUT_API_URL: sandbox.url,
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    SCOUT_REPLY_POLL_SECONDS: '10',
  });
  return Object.assign(scout, { name });
}

const post = async (replica: Replica, form: Record<string, string>) => {
  const body = new URLSearchParams(form).toString();
  const res = await request(`http://127.0.0.1:${replica.port}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(SECRET, body, { contentType: 'application/x-www-form-urlencoded' }),
    body,
  });
  await res.body.text();
  return res.statusCode;
};

const command = (replica: Replica, text: string, id: string, user = 'U0001') =>
  post(
    replica,
    slashCommandBody({
      text,
      responseUrl: slack.responseUrl(id),
      channelId: CHANNEL,
      teamId: TEAM,
      userId: user,
    }),
  );

const press = (replica: Replica, actionId: string, id: string) =>
  post(replica, {
    payload: JSON.stringify(blockActionPayload({ actionId, responseUrl: slack.responseUrl(id) })),
  });

/** Interim messages a slow answer is preceded by: the working message, a place in the queue. */
const INTERIM = /Working on it…|Searching creators…|The service is busy/;
/** The answer sent to `id`'s response_url, past any interim message. */
const answer = (id: string, ms = 60_000) =>
  slack.waitFor(() => slack.responses.find((r) => r.id === id && !INTERIM.test(JSON.stringify(r.body))), ms);

/** The action ids of the buttons labelled `label` in an answer. */
function buttons(body: Record<string, unknown>, label: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const element = value as { type?: string; text?: { text?: string }; action_id?: string };
      if (
        element.type === 'button' &&
        element.text?.text?.startsWith(label) === true &&
        element.action_id !== undefined
      )
        found.push(element.action_id);
      Object.values(value).forEach(walk);
    }
  };
  walk(body.blocks);
  return found;
}

const leader = () =>
  replicas.find(
    (r) => r.child.exitCode === null && r.child.signalCode === null && r.output.includes('Lease won'),
  );

beforeAll(async () => {
  sandbox = createSandbox({
    keys: [{ key: KEY, teamId: SANDBOX_TEAM, credits: 1_000_000 }],
    rateLimitPerMinute: ALLOWANCE,
    replyIntervalMs: 0,
  });
  await sandbox.start();
  slack = await startFakeSlack();
  const place = await freshLocation({ shared: true });
  drop = place.drop;
  const url = (place.location as { url: string }).url;
  // The first one migrates the database; the others find it ready.
  replicas.push(await startReplica('one', url));
  replicas.push(...(await Promise.all([startReplica('two', url), startReplica('three', url)])));
  await until(() => leader() !== undefined, 'a replica to run the background jobs');
}, 120_000);

afterAll(async () => {
  for (const replica of replicas) replica.child.kill('SIGKILL');
  await slack?.stop();
  await sandbox?.stop();
  await drop();
});

describe('three replicas on one PostgreSQL and Redis', () => {
  it('runs the background jobs on exactly one replica', () => {
    expect(replicas.filter((r) => r.output.includes('Lease won'))).toHaveLength(1);
  });

  it('serves a button made through one replica through another, and charges a double press once', async () => {
    const [one, two, three] = replicas as [Replica, Replica, Replica];
    expect(await command(one, 'creators category:Fitness', 'search')).toBe(200);
    const results = await answer('search');
    // The next page buys its creators' profiles.
    const [next] = buttons(results.body, 'Next');
    expect(next).toBeDefined();
    const gets = () => sandbox.requests(KEY).filter((r) => r.path === '/api/v2/creators/get').length;
    const before = gets();
    const balance = sandbox.credits(KEY);
    // The same press delivered to two replicas at once (a double click spread by the load balancer).
    await Promise.all([press(two, next as string, 'press-a'), press(three, next as string, 'press-b')]);
    const [a, b] = await Promise.all([answer('press-a'), answer('press-b')]);
    const shown = [JSON.stringify(a.body), JSON.stringify(b.body)];
    expect(shown.some((text) => text.includes('6-10 of'))).toBe(true);
    expect(gets() - before).toBe(1);
    expect(balance - sandbox.credits(KEY)).toBe(5);
  }, 60_000);

  it('announces every reply exactly once, also when the replica running the jobs is killed', async () => {
    const [one] = replicas as [Replica];
    expect(await command(one, 'notify', 'notify')).toBe(200);
    await answer('notify');
    const posts = () =>
      slack.calls
        .filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL)
        .map((c) => JSON.stringify(c.args));
    const bodies = [
      'First reply',
      'Second reply',
      'Third reply',
      'Fourth reply',
      'Fifth reply',
      'Sixth reply',
    ];
    for (const body of bodies.slice(0, 3)) sandbox.addInboundReply(SANDBOX_TEAM, { body: `${body} here` });
    await until(
      () => bodies.slice(0, 3).every((body) => posts().some((p) => p.includes(body))),
      'the first replies',
      60_000,
    );

    const running = leader();
    expect(running).toBeDefined();
    for (const body of bodies.slice(3)) sandbox.addInboundReply(SANDBOX_TEAM, { body: `${body} here` });
    running?.child.kill('SIGKILL');
    await until(
      () => replicas.filter((r) => r.output.includes('Lease won')).length === 2,
      'another replica to take the jobs',
      30_000,
    );
    await until(() => bodies.every((body) => posts().some((p) => p.includes(body))), 'every reply', 60_000);
    // Give a second announcement time to show up, if there were to be one.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    for (const body of bodies) expect(posts().filter((p) => p.includes(body))).toHaveLength(1);
  }, 180_000);

  it('gives more people searching at once than the allowance per minute their results within it', async () => {
    const alive = replicas.filter((r) => r.child.exitCode === null && r.child.signalCode === null);
    const from = sandbox.requests(KEY).length;
    // More searches than a minute allows, whatever profiles earlier tests left in the shared cache.
    const people = Array.from({ length: ALLOWANCE + 10 }, (_, i) => ({
      user: `U1${String(i).padStart(4, '0')}`,
      id: `crowd-${i}`,
    }));
    await Promise.all(
      people.map((person, i) =>
        command(
          alive[i % alive.length] as Replica,
          `creators category:Fitness followers:${1 + (i % 50)}k-2m`,
          person.id,
          person.user,
        ),
      ),
    );
    // Each person's results: creator cards (a notice that the command waits may come first).
    const results = (id: string) =>
      slack.responses.find((r) => r.id === id && JSON.stringify(r.body).includes('Add to list'));
    await until(
      () => people.every((person) => results(person.id) !== undefined),
      'everyone’s results',
      300_000,
    );
    const seen = sandbox.requests(KEY).slice(from);
    expect(seen.filter((r) => r.status === 429)).toEqual([]);
    const times = seen.map((r) => r.at).sort((x, y) => x - y);
    let busiest = 0;
    for (const [i, at] of times.entries())
      busiest = Math.max(busiest, times.slice(i).filter((t) => t < at + 60_000).length);
    expect(busiest).toBeLessThanOrEqual(ALLOWANCE);
    expect(times.length).toBeGreaterThan(ALLOWANCE);
  }, 420_000);
});
