/**
 * End-to-end harness: the service sandbox on 127.0.0.1, the real app graph over an in-memory SQLite database,
 * and the terminal shell driven through streams, line by line, as a person would type.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createTerminal, LOCAL_ACTOR, type TerminalShell } from '../../src/adapters/terminal/shell.js';
import { type App, createApp } from '../../src/app.js';
import type { Actor } from '../../src/core/actor.js';
import { type Clock, systemClock } from '../../src/core/clock.js';
import type { CommandFamily, CommandSettings } from '../../src/core/command/types.js';
import { createLogger } from '../../src/core/logger.js';
import type { ProfileBatchSettings } from '../../src/core/service/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';

/** The key and team of the harness's sandbox account. */
export const TEST_KEY = 'harness-key-0001';
export const TEST_TEAM = 'team_harness';

/** Options of startHarness. */
export interface HarnessOptions {
  credits?: number;
  settings?: Partial<CommandSettings>;
  clock?: Clock;
  sandbox?: Omit<SandboxOptions, 'keys'>;
  actor?: Actor;
  /** Requests per minute allowed by the sandbox and the client (the contract's 60 by default). */
  rateLimitPerMinute?: number;
  /** Only these command families (all by default). */
  families?: readonly CommandFamily[];
  /** The base URL the app calls instead of the sandbox's (a proxy in front of it), given the sandbox's. */
  through?: (sandboxUrl: string) => Promise<string>;
  /** The app's retry settings (a few quick attempts by default). */
  retry?: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  /** Where the terminal saves the files of replies (a new temporary folder otherwise). */
  filesDir?: string;
  /** How the app's client gathers profile calls into shared requests (its defaults otherwise). */
  profileBatch?: ProfileBatchSettings;
}

/** A running harness. */
export interface Harness {
  readonly sandbox: Sandbox;
  readonly app: App;
  /** Types one line into the terminal and resolves with everything printed in answer. */
  type(line: string): Promise<string>;
  /** Requests the sandbox received from the harness key. */
  requests(): ReturnType<Sandbox['requests']>;
  /** Credits the ledger recorded for the local person today. */
  spentToday(): Promise<number>;
  stop(): Promise<void>;
}

const PROMPT = '\u241escout> ';

/** Starts the sandbox, the app and a terminal shell. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    ...options.sandbox,
    ...(options.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: options.rateLimitPerMinute }),
    keys: [{ key: TEST_KEY, teamId: TEST_TEAM, credits: options.credits ?? 100_000 }],
  });
  await sandbox.start();
  const app = await createApp({
    service: {
      apiKey: TEST_KEY,
      baseUrl: options.through === undefined ? sandbox.url : await options.through(sandbox.url),
      mediaUrl: sandbox.mediaUrl,
      retry: options.retry ?? { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 },
      ...(options.rateLimitPerMinute === undefined
        ? {}
        : { rateLimit: { perWindow: options.rateLimitPerMinute } }),
      ...(options.profileBatch === undefined ? {} : { profileBatch: options.profileBatch }),
    },
    databasePath: ':memory:',
    settings: options.settings ?? {},
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr }),
    clock: options.clock ?? systemClock,
    families: options.families ?? (await import('../../src/commands/index.js')).FAMILIES,
  });
  const input = new PassThrough();
  const output = new PassThrough();
  let buffer = '';
  let waiting: ((text: string) => void) | null = null;
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const at = buffer.indexOf(PROMPT);
    if (at >= 0 && waiting !== null) {
      const text = buffer.slice(0, at);
      buffer = buffer.slice(at + PROMPT.length);
      const resolve = waiting;
      waiting = null;
      resolve(text);
    }
  });
  const shell: TerminalShell = createTerminal({
    input,
    output,
    chat: app.chat,
    actor: options.actor ?? LOCAL_ACTOR,
    prompt: PROMPT,
    // Files of replies (exports, the credits chart) go to a folder of the test's own, never the working folder.
    filesDir: options.filesDir ?? mkdtempSync(join(tmpdir(), 'scout-harness-files-')),
  });
  const running = shell.start();
  // The first prompt is printed at start; consume it.
  await new Promise<string>((resolve) => {
    waiting = resolve;
    output.emit('data', Buffer.alloc(0));
  });
  return {
    sandbox,
    app,
    type(line) {
      return new Promise<string>((resolve) => {
        waiting = resolve;
        input.write(`${line}\n`);
      });
    },
    requests: () => sandbox.requests(TEST_KEY),
    async spentToday() {
      const now = app.clock.now();
      const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const actor = options.actor ?? LOCAL_ACTOR;
      return app.store.ledger.spent(actor, { from, to: new Date(from.getTime() + 86_400_000) });
    },
    async stop() {
      input.end();
      await running;
      await app.stop();
      await sandbox.stop();
    },
  };
}
