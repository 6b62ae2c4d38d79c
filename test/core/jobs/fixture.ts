/** Shared pieces of the jobs tests: a sandbox and app on one manual clock, and a recording Outbound. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, createApp } from '../../../src/app.js';
import { digestFamily } from '../../../src/commands/digest.js';
import { listFamily, listsFamily } from '../../../src/commands/lists.js';
import { notifyFamily } from '../../../src/commands/notify.js';
import { outreachFamily } from '../../../src/commands/outreach.js';
import { viralFamily } from '../../../src/commands/viral.js';
import { createManualClock } from '../../../src/core/clock.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import type { ChannelRef, Outbound, PersonRef, PostedMessage } from '../../../src/core/outbound.js';
import { type Reply, renderText } from '../../../src/core/ui/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

export const KEY = 'jobs-key-0001';
export const TEAM = 'team_jobs';

/** A post as the recording Outbound was asked for it. */
export interface RecordedAttempt {
  channel: ChannelRef;
  reply: Reply;
  text: string;
  inThreadOf: PostedMessage | undefined;
  key: string | undefined;
  mayHaveLanded: boolean;
}

/** One post as the recording Outbound saw it, and what it answered. */
export interface RecordedPost extends RecordedAttempt {
  posted: PostedMessage;
}

/** One direct message as the recording Outbound saw it. */
export interface RecordedDirect {
  person: PersonRef;
  text: string;
  key: string | undefined;
  mayHaveLanded: boolean;
}

/** An Outbound that keeps every post (rendered with the terminal renderer); it can be told to hang. */
export interface RecordingOutbound extends Outbound {
  readonly posts: RecordedPost[];
  /** Direct messages, which never hang. */
  readonly direct: RecordedDirect[];
  /** Posts after this many never complete (a process killed mid-post). */
  hangAfter: number | null;
  /** Posts that started and never completed. */
  readonly hung: RecordedAttempt[];
}

/** Creates a recording Outbound for the terminal platform; its message ids are `name` and a number. */
export function recordingOutbound(name = 'm'): RecordingOutbound {
  let sequence = 0;
  const outbound: RecordingOutbound = {
    platform: 'terminal',
    posts: [],
    direct: [],
    hangAfter: null,
    hung: [],
    async post(channel, reply, options = {}) {
      const parent = options.inThreadOf;
      const attempt: RecordedAttempt = {
        channel,
        reply,
        text: renderText(reply).text,
        inThreadOf: parent,
        key: options.key,
        mayHaveLanded: options.mayHaveLanded ?? false,
      };
      if (outbound.hangAfter !== null && outbound.posts.length >= outbound.hangAfter) {
        outbound.hung.push(attempt);
        return new Promise<PostedMessage>(() => {});
      }
      sequence += 1;
      const posted: PostedMessage = {
        platform: 'terminal',
        channelId: channel.channelId,
        messageId: `${name}${sequence}`,
        threadId: parent === undefined ? null : (parent.threadId ?? parent.messageId),
      };
      outbound.posts.push({ ...attempt, posted });
      return posted;
    },
    async postDirect(person, reply, options = {}) {
      sequence += 1;
      const { key, mayHaveLanded = false } = options;
      outbound.direct.push({ person, text: renderText(reply).text, key, mayHaveLanded });
      return {
        platform: 'terminal',
        channelId: `@${person.userId}`,
        messageId: `${name}${sequence}`,
        threadId: null,
      };
    },
  };
  return outbound;
}

/** Waits until `check` holds, polling every few milliseconds; fails after `limitMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 5000,
): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Families the jobs tests use. */
export const FAMILIES = [notifyFamily, digestFamily, outreachFamily, listsFamily, listFamily, viralFamily];

/** A sandbox and apps sharing one manual clock and a temporary folder for file databases. */
export interface World {
  readonly sandbox: Sandbox;
  readonly clock: ReturnType<typeof createManualClock>;
  readonly dbPath: string;
  /** A new app over the world's database file. */
  app(): Promise<App>;
  close(): Promise<void>;
}

/** Starts a world at `start`. */
export async function startWorld(start: string): Promise<World> {
  const clock = createManualClock(start);
  const sandbox = createSandbox({
    now: () => clock.now().getTime(),
    keys: [{ key: KEY, teamId: TEAM, credits: 100_000 }],
  });
  await sandbox.start();
  const dir = mkdtempSync(join(tmpdir(), 'scout-jobs-'));
  const apps: App[] = [];
  return {
    sandbox,
    clock,
    dbPath: join(dir, 'scout.db'),
    async app() {
      const app = await createApp({
        service: {
          apiKey: KEY,
          baseUrl: sandbox.url,
          mediaUrl: sandbox.mediaUrl,
          retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
        },
        databasePath: join(dir, 'scout.db'),
        logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent' }),
        clock,
        families: FAMILIES,
      });
      apps.push(app);
      return app;
    },
    async close() {
      for (const app of apps) await app.stop().catch(() => {});
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The logger of the jobs under test. */
export const silentLogger = () => createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent' });

/** The jobs of `app` posting through `outbound`, looping at `intervals`; added to `running` for the test to stop. */
export function recordedJobs(
  app: App,
  outbound: RecordingOutbound,
  intervals: { pollIntervalMs: number; digestCheckMs: number },
  running: Jobs[],
): Jobs {
  const jobs = createJobs({
    app,
    outbound: new Map([['terminal', outbound]]),
    logger: silentLogger(),
    ...intervals,
  });
  running.push(jobs);
  return jobs;
}
