/**
 * Shared pieces of the chat-platform jobs tests: a sandbox and apps over one file database on one manual
 * clock, jobs started on the platforms' real Outbounds, and a forwarding HTTP front that can hold requests
 * (a process killed while its post was on the way) or lose their answers (killed once the post had landed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import type { Platform } from '../../../src/core/actor.js';
import type { Clock } from '../../../src/core/clock.js';
import { createManualClock } from '../../../src/core/clock.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import type { Outbound } from '../../../src/core/outbound.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { until } from './fixture.js';

const KEY = 'chat-jobs-key-0001';
/** The sandbox team behind the key. */
export const TEAM = 'team_chat_jobs';

/** The logger of the apps, adapters and jobs under test. */
export const testLogger = () =>
  createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr });

/** A sandbox, apps over one database file, and the jobs started in it, all on one manual clock. */
export interface ChatWorld {
  readonly sandbox: Sandbox;
  readonly clock: ReturnType<typeof createManualClock>;
  /** How many times the jobs read the clock: each digest check reads it once per active digest. */
  readonly clockReads: number;
  /** A new app over the world's database file (a restarted process). */
  app(): Promise<App>;
  /** Starts the jobs of `app` posting through `outbound`, with short intervals. */
  startJobs(app: App, platform: Platform, outbound: Outbound, intervals: JobIntervals): Promise<Jobs>;
  /** Inbound agent-message reads of the poller so far. */
  pollCount(): number;
  /** A creator reply a minute later on the shared clock, with a body that names it. */
  replyArrives(body: string, threadId?: string): { thread_id?: string | null | undefined };
  close(): Promise<void>;
}

/** How often the jobs loop. */
export interface JobIntervals {
  pollIntervalMs: number;
  digestCheckMs: number;
  /** How often unsent budget alerts are looked for; the jobs' default when not given. */
  alertCheckMs?: number;
}

/** Starts a world at `start`. */
export async function startChatWorld(start: string): Promise<ChatWorld> {
  const clock = createManualClock(start);
  const sandbox = createSandbox({
    now: () => clock.now().getTime(),
    rateLimitPerMinute: 100_000,
    keys: [{ key: KEY, teamId: TEAM, credits: 100_000 }],
  });
  await sandbox.start();
  const dir = mkdtempSync(join(tmpdir(), 'scout-chat-jobs-'));
  const apps: App[] = [];
  const running: Jobs[] = [];
  let clockReads = 0;
  const countingClock: Clock = {
    now: () => {
      clockReads += 1;
      return clock.now();
    },
  };
  return {
    sandbox,
    clock,
    get clockReads() {
      return clockReads;
    },
    async app() {
      const app = await createApp({
        service: {
          apiKey: KEY,
          baseUrl: sandbox.url,
          mediaUrl: sandbox.mediaUrl,
          retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
          rateLimit: { perWindow: 100_000 },
        },
        databasePath: join(dir, 'scout.db'),
        logger: testLogger(),
        clock,
        families: FAMILIES,
      });
      apps.push(app);
      return app;
    },
    async startJobs(app, platform, outbound, intervals) {
      const jobs = createJobs({
        app,
        outbound: new Map([[platform, outbound]]),
        logger: testLogger(),
        clock: countingClock,
        ...intervals,
      });
      running.push(jobs);
      await jobs.start();
      return jobs;
    },
    pollCount: () =>
      sandbox
        .requests(KEY)
        .filter((r) => r.path === '/api/v1/agent/messages' && r.query.direction === 'inbound').length,
    replyArrives(body, threadId) {
      clock.advance(60_000);
      return sandbox.addInboundReply(TEAM, threadId === undefined ? { body } : { body, threadId });
    },
    async close() {
      for (const jobs of running.splice(0)) await jobs.stop();
      for (const app of apps.splice(0)) await app.stop().catch(() => {});
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One request that went through the front, with the answer it got. */
export interface Exchange {
  method: string;
  path: string;
  body: string;
  status: number;
  answer: string;
}

/** A request the front holds unanswered: it never reached the target, or its answer was lost on the way back. */
export interface Held {
  method: string;
  path: string;
  body: string;
  res: ServerResponse;
}

/** An HTTP front that forwards to a target, records the exchanges, and holds requests `hold` picks. */
export interface Front {
  readonly url: string;
  readonly exchanges: Exchange[];
  readonly held: Held[];
  hold: ((method: string, path: string, body: string) => boolean) | null;
  /** Requests forwarded to the target (which acts on them) whose answer never comes back: they join `held`. */
  lose: ((method: string, path: string, body: string) => boolean) | null;
  /** Answers the requests it serves itself, before forwarding; null to forward. */
  serve: ((req: IncomingMessage, body: string, res: ServerResponse) => boolean) | null;
  /** Answers every held request with `status` and `body`, then closes. */
  stop(answer: { status: number; body: unknown }): Promise<void>;
  readonly server: Server;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

const FORWARDED = ['authorization', 'content-type', 'user-agent'];

/** Starts a front on 127.0.0.1 forwarding to `target` (a base URL without trailing slash). */
export async function startFront(target: string): Promise<Front> {
  const exchanges: Exchange[] = [];
  const held: Held[] = [];
  const front: Front = {
    url: '',
    exchanges,
    held,
    hold: null,
    lose: null,
    serve: null,
    server: createServer((req, res) => {
      void handle(req, res);
    }),
    async stop(answer) {
      for (const h of held.splice(0)) {
        if (h.res.writableEnded || h.res.destroyed) continue;
        h.res.writeHead(answer.status, { 'content-type': 'application/json' });
        h.res.end(JSON.stringify(answer.body));
      }
      front.server.closeAllConnections();
      await new Promise<void>((resolve) => front.server.close(() => resolve()));
    },
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    if (front.hold?.(method, path, body) === true) {
      held.push({ method, path, body, res });
      return;
    }
    if (front.serve?.(req, body, res) === true) return;
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    try {
      const answer = await request(`${target}${path}`, {
        method: method as 'GET',
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
      });
      const text = await answer.body.text();
      exchanges.push({ method, path, body, status: answer.statusCode, answer: text });
      if (front.lose?.(method, path, body) === true) {
        held.push({ method, path, body, res });
        return;
      }
      const type = answer.headers['content-type'];
      res.writeHead(answer.statusCode, typeof type === 'string' ? { 'content-type': type } : {});
      res.end(text);
    } catch (error) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: String(error) }));
    }
  };
  await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
  (front as { url: string }).url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
  return front;
}

/**
 * Lets the target take the next request `lands` picks but loses its answer, then runs `stop` without any other
 * cleanup: a process killed after its post landed and before it learnt so.
 */
export async function crashAfterLanding(
  f: Front,
  lands: (method: string, path: string) => boolean,
  trigger: () => void,
  stop: () => Promise<void>,
): Promise<void> {
  const before = f.held.length;
  f.lose = lands;
  trigger();
  await until(() => f.held.length > before, 'the post to land');
  await stop();
  f.lose = null;
}
