import { afterEach, describe, expect, it } from 'vitest';
import { type AgentMessage, createSandbox, DEMO_KEY, type Sandbox } from '../../src/sandbox/index.js';
import { call, clientFor, FIXED_NOW, startSandbox } from './fixture.js';

interface Page<T> {
  response: { data: T[]; total: number };
}

const running: Sandbox[] = [];
async function start(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const sandbox = await startSandbox(options);
  running.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function inbound(sandbox: Sandbox, key = DEMO_KEY): Promise<AgentMessage[]> {
  const answer = await clientFor(sandbox, key).get<Page<AgentMessage>>('/api/v1/agent/messages', {
    direction: 'inbound',
    perPage: 100,
  });
  return answer.json.response.data;
}

describe('lifecycle', () => {
  it('exposes its URLs only once started and serves the demo key by default', async () => {
    const sandbox = createSandbox({ now: () => FIXED_NOW });
    expect(() => sandbox.url).toThrow(/start/);
    await sandbox.start();
    running.push(sandbox);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.mediaUrl).toBe(`${sandbox.url}/media`);
    expect(sandbox.outputUrl).toBe(`${sandbox.url}/output`);
    expect(DEMO_KEY).toBe('sandbox-demo-key');
    const answer = await clientFor(sandbox).get('/api/v2/creators/search');
    expect(answer.status).toBe(200);
    expect(Number(answer.headers['x-ty-credits'])).toBeGreaterThanOrEqual(10_000);
  });

  it('stops idempotently and refuses connections afterwards', async () => {
    const sandbox = await start();
    const url = sandbox.url;
    await sandbox.stop();
    await sandbox.stop();
    await expect(call(url, 'GET', '/api/v2/creators/search')).rejects.toThrow();
  });

  it('adds keys and sets balances at run time', async () => {
    const sandbox = await start();
    expect(() => sandbox.credits('late')).toThrow();
    sandbox.addKey({ key: 'late', teamId: 'team-late', credits: 3 });
    expect((await clientFor(sandbox, 'late').get('/api/v1/creators', { perPage: 2 })).status).toBe(200);
    expect(sandbox.credits('late')).toBe(1);
    sandbox.setCredits('late', 50);
    expect(sandbox.credits('late')).toBe(50);
    expect(() => sandbox.injectFaults('nobody', { kind: 'timeout' })).toThrow();
  });
});

describe('determinism', () => {
  it('serves the same data from two sandboxes with the same seed, and other data with another seed', async () => {
    const [a, b, c] = await Promise.all([start({ seed: 42 }), start({ seed: 42 }), start({ seed: 43 })]);
    const query = { perPage: 20, mainCategory: 'Gaming' };
    const ids = async (s: Sandbox) =>
      (await clientFor(s).get<{ response: { data: string[] } }>('/api/v2/creators/search', query)).json
        .response.data;
    expect(await ids(a)).toEqual(await ids(b));
    expect(await ids(a)).not.toEqual(await ids(c));
    const viral = async (s: Sandbox) =>
      (await clientFor(s).post('/api/v1/viral-content', { pageSize: 5 })).json;
    expect(await viral(a)).toEqual(await viral(b));
    const projects = async (s: Sandbox) => (await clientFor(s).get('/api/v1/agent/projects')).json;
    expect(await projects(a)).toEqual(await projects(b));
    expect(await inbound(a)).toEqual(await inbound(b));
  });
});

describe('inbound replies', () => {
  it('keeps new replies arriving at the configured interval, for every team', async () => {
    const sandbox = await start({
      replyIntervalMs: 15,
      keys: [
        { key: 'a', teamId: 'team-a', credits: 0 },
        { key: 'b', teamId: 'team-b', credits: 0 },
      ],
      rateLimitPerMinute: 10_000,
    });
    const firstA = (await inbound(sandbox, 'a')).length;
    const firstB = (await inbound(sandbox, 'b')).length;
    await expect
      .poll(async () => (await inbound(sandbox, 'a')).length, { timeout: 5000, interval: 20 })
      .toBeGreaterThan(firstA + 2);
    await expect
      .poll(async () => (await inbound(sandbox, 'b')).length, { timeout: 5000, interval: 20 })
      .toBeGreaterThan(firstB);
  });

  it('adds a reply on demand, in an existing thread, and shows it in messages and aggregates', async () => {
    const sandbox = await start({ rateLimitPerMinute: 10_000 });
    const before = await inbound(sandbox);
    const reply = sandbox.addInboundReply('team_demo', { body: 'Count me in!' });
    expect(reply).toMatchObject({ direction: 'inbound', status: 'received', body: 'Count me in!' });
    expect(reply.date_created).toBe(new Date(FIXED_NOW).toISOString());
    const after = await inbound(sandbox);
    expect(after.length).toBe(before.length + 1);
    expect(after.map((m) => m.id)).toContain(reply.id);
    const thread = await clientFor(sandbox).get<Page<AgentMessage>>('/api/v1/agent/messages', {
      threadId: reply.thread_id,
    });
    const outbound = thread.json.response.data.filter((m) => m.direction === 'outbound');
    expect(outbound.length).toBeGreaterThan(0);
    expect(outbound.some((m) => m.status === 'replied')).toBe(true);
    const contacted = await clientFor(sandbox).get<
      Page<{ creator_email: string; last_reply_at: string | null }>
    >('/api/v1/agent/contacted-creators', { creatorEmail: reply.creator_email });
    expect(contacted.json.response.data[0]?.last_reply_at).toBe(reply.date_created);

    const again = sandbox.addInboundReply('team_demo', { threadId: reply.thread_id });
    expect(again.thread_id).toBe(reply.thread_id);
    expect(again.parent_message_id).toBe(reply.message_id);
    expect(() => sandbox.addInboundReply('team_demo', { threadId: 'no-such-thread' })).toThrow();
  });

  it('accepts replies over the admin route for out-of-process tests', async () => {
    const sandbox = await start();
    const answer = await call<{ message: AgentMessage }>(sandbox.url, 'POST', '/__sandbox/replies', {
      key: null,
      body: { teamId: 'team_demo', body: 'Hello from afar' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json.message.body).toBe('Hello from afar');
    expect((await inbound(sandbox)).map((m) => m.id)).toContain(answer.json.message.id);
    const bad = await call(sandbox.url, 'POST', '/__sandbox/replies', { key: null, body: { teamId: 7 } });
    expect(bad.status).toBe(400);
  });
});
