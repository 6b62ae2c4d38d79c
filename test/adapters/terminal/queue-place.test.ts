/**
 * In the terminal, a command that has to wait for the service's allowance prints its place in the queue once (later
 * changes of place are not printed again), with a Cancel button; typing `cancel` while it waits presses it at once,
 * even after another command typed meanwhile (which waits its turn), and the command's answer then says nothing more
 * was sent, and the service never sees the request. Two terminal shells of two people share one app over the
 * sandbox, which allows one request a minute.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTerminal, LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

const KEY = 'terminal-queue-0001';
const PLACE = /The service is busy: (yours is next|\d+ requests? ahead of yours), about \d+ (s|min)/g;
const NOTHING_SENT = 'Cancelled while waiting for the service: nothing more was sent.';
const SEARCH = 'creators category:Fitness followers:10k-2m';

/** A shell of one person: what it printed so far, and typing a line into it. */
interface Person {
  printed(): string;
  type(line: string): void;
  /** Resolves once the shell ended (its input ended or the app stopped). */
  ended: Promise<void>;
  end(): void;
}

let sandbox: Sandbox;
let app: App;
let people: Person[];

/** Starts the sandbox and the app, the service allowing `allowance` requests a minute. */
async function startWorld(allowance: number): Promise<void> {
  sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    rateLimitPerMinute: allowance,
    keys: [{ key: KEY, teamId: 'team_terminal', credits: 100_000 }],
  });
  await sandbox.start();
  app = await createApp({
    service: {
      apiKey: KEY,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      // Places are reported often, so a change of place comes while the test waits.
      rateLimit: { perWindow: allowance, queueReportMs: 200 },
    },
    databasePath: ':memory:',
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr }),
    families: FAMILIES,
  });
  people = [];
}

afterEach(async () => {
  for (const person of people) person.end();
  // Stopping the app drops the calls still waiting, which ends the commands the shells wait for.
  await app.stop();
  await Promise.all(people.map((person) => person.ended));
  await sandbox.stop();
});

/** Starts a terminal shell for `userId` in the local workspace. */
function shellOf(userId: string): Person {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  const shell = createTerminal({
    input,
    output,
    chat: app.chat,
    actor: { ...LOCAL_ACTOR, userId, userName: userId },
  });
  const person: Person = {
    printed: () => printed,
    type: (line) => input.write(`${line}\n`),
    ended: shell.start(),
    end: () => input.end(),
  };
  people.push(person);
  return person;
}

/** Resolves once `check` holds, looking every 20 ms; fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const places = (text: string) => text.match(PLACE) ?? [];

describe('terminal: a command waiting for the service', () => {
  it('prints its place once with Cancel; typing cancel ends the wait with nothing sent', {
    timeout: 20_000,
  }, async () => {
    await startWorld(1);
    const ana = shellOf('ana');
    const ben = shellOf('ben');
    ana.type(SEARCH);
    await until(() => sandbox.requests(KEY).length === 1, 'the first search sent');

    ben.type(SEARCH);
    await until(() => places(ben.printed()).length > 0, 'the place in the queue');
    expect(ben.printed()).toMatch(/\[1\] Cancel/);
    // The estimate counts down each second and places are reported every 200 ms, past the 3 s (and the next change)
    // after which a platform that edits its message would show the new one: none of it is printed again.
    await sleep(4_200);
    expect(places(ben.printed())).toHaveLength(1);
    expect(ben.printed()).not.toContain(NOTHING_SENT);

    // A command typed meanwhile waits its turn; Cancel typed after it still ends the wait at once.
    ben.type('help');
    ben.type('cancel');
    await until(() => ben.printed().includes(NOTHING_SENT), 'the answer after Cancel');
    await until(() => ben.printed().includes('/scout creators:'), 'help, after the answer');
    const printed = ben.printed();
    expect(places(printed)).toHaveLength(1);
    const cancelled = printed.indexOf('Cancelled.');
    const answer = printed.indexOf(NOTHING_SENT);
    expect(printed.search(PLACE)).toBeLessThan(cancelled);
    expect(cancelled).toBeLessThan(answer);
    expect(answer).toBeLessThan(printed.indexOf('/scout creators:'));
    // Only the first person's search reached the service.
    expect(sandbox.requests(KEY).map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /api/v2/creators/search',
    ]);
  });

  it('leaves the buttons of the answer before pressable once a wait is cancelled', {
    timeout: 20_000,
  }, async () => {
    await startWorld(2);
    const ben = shellOf('ben');
    // The search and its profiles take the allowance; the list of lists then waits, and is cancelled.
    ben.type(SEARCH);
    await until(() => ben.printed().includes('Next'), 'the results');
    ben.type('lists');
    await until(() => places(ben.printed()).length > 0, 'the place in the queue');
    ben.type('cancel');
    await until(() => ben.printed().includes(NOTHING_SENT), 'the answer after Cancel');
    // The wait's Cancel is gone with it: the results' Next is what the press means (the page waits its turn too).
    ben.type('next');
    await until(
      () => places(ben.printed()).length === 2 || ben.printed().includes('There is no "next" here'),
      'the next page, or a refusal',
    );
    expect(ben.printed()).not.toContain('There is no "next" here');
  });
});
