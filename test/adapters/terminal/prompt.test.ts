/**
 * The shell on a terminal (readline drawing the prompt and echoing keys, over the test's streams): a background post
 * that arrives while a line is being typed is printed above it, and the prompt is drawn again below with what was
 * typed, which the Enter key then sends whole; so is a wait's notice printed while a line is at work. Ctrl-C stops
 * the shell, or does what the shell was given for it.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTerminalOutbound } from '../../../src/adapters/terminal/outbound.js';
import { createTerminal, type TerminalShell } from '../../../src/adapters/terminal/shell.js';
import { type App, createApp } from '../../../src/app.js';
import { FAMILIES } from '../../../src/commands/index.js';
import { createLogger } from '../../../src/core/logger.js';
import type { Outbound } from '../../../src/core/outbound.js';
import { reply, text } from '../../../src/core/ui/index.js';
import { createSandbox, type Sandbox } from '../../../src/sandbox/index.js';

const KEY = 'terminal-prompt-0001';
const PROMPT = 'scout> ';
const channel = { platform: 'terminal' as const, workspaceId: 'local', channelId: 'general' };
/** The escape character that begins readline's cursor moves and erasures. */
const ESC = '\u001b';

let sandbox: Sandbox | undefined;
let app: App | undefined;
let input: PassThrough;
let ended: Promise<void> = Promise.resolve();

afterEach(async () => {
  input?.end();
  await app?.stop();
  await ended;
  await sandbox?.stop();
  app = undefined;
  sandbox = undefined;
});

/** What a terminal shows of `raw`: its lines after the cursor's moves and erasures (one row each, as tests write). */
function screenOf(raw: string): string[] {
  const rows: string[] = [''];
  let row = 0;
  let col = 0;
  const put = (char: string) => {
    const line = rows[row] ?? '';
    rows[row] = line.slice(0, col).padEnd(col) + char + line.slice(col + 1);
    col += 1;
  };
  const tokens = raw.match(new RegExp(`${ESC}\\[\\d*[A-Za-z]|\r|\n|[^${ESC}\r\n]`, 'g')) ?? [];
  for (const token of tokens) {
    const move = new RegExp(`^${ESC}\\[(\\d*)([A-Za-z])$`).exec(token);
    if (move !== null) {
      const n = Number(move[1] || '0');
      const code = move[2];
      if (code === 'G') col = Math.max(0, (n || 1) - 1);
      else if (code === 'A') row = Math.max(0, row - (n || 1));
      else if (code === 'B') row += n || 1;
      else if (code === 'C') col += n || 1;
      else if (code === 'D') col = Math.max(0, col - (n || 1));
      else if (code === 'J') {
        rows.splice(row + 1);
        rows[row] = (rows[row] ?? '').slice(0, col);
      } else if (code === 'K') rows[row] = n === 2 ? '' : (rows[row] ?? '').slice(0, col);
      continue;
    }
    if (token === '\r') col = 0;
    else if (token === '\n') {
      row += 1;
      col = 0;
      if (rows[row] === undefined) rows[row] = '';
    } else put(token);
  }
  return rows.map((line) => line.trimEnd());
}

/** Resolves once `check` holds, looking every 20 ms; fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A shell on a terminal over the real app and sandbox, with the Outbound that shows posts in it. */
async function startShell(options: { onInterrupt?: () => void; allowance?: number } = {}) {
  sandbox = createSandbox({
    replyIntervalMs: 0,
    remixDelayMs: 0,
    ...(options.allowance === undefined ? {} : { rateLimitPerMinute: options.allowance }),
    keys: [{ key: KEY, teamId: 'team_prompt', credits: 100_000 }],
  });
  await sandbox.start();
  app = await createApp({
    service: {
      apiKey: KEY,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
      ...(options.allowance === undefined
        ? {}
        : { rateLimit: { perWindow: options.allowance, queueReportMs: 200 } }),
    },
    databasePath: ':memory:',
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent', destination: process.stderr }),
    families: FAMILIES,
  });
  input = new PassThrough();
  const output = new PassThrough();
  let raw = '';
  output.on('data', (chunk: Buffer) => {
    raw += chunk.toString('utf8');
  });
  const shell: TerminalShell = createTerminal({
    input,
    output,
    chat: app.chat,
    prompt: PROMPT,
    terminal: true,
    ...(options.onInterrupt === undefined ? {} : { onInterrupt: options.onInterrupt }),
  });
  ended = shell.start();
  const outbound: Outbound = createTerminalOutbound({ output, shell });
  const screen = () => screenOf(raw);
  await until(() => screen().at(-1) === PROMPT.trimEnd(), 'the first prompt');
  return { shell, outbound, screen, raw: () => raw };
}

describe('terminal: the prompt after output that arrives meanwhile', () => {
  it('draws the prompt again below a post, with what was typed, and sends the line whole', {
    timeout: 20_000,
  }, async () => {
    const { outbound, screen } = await startShell();
    input.write('hel');
    await until(() => screen().at(-1) === 'scout> hel', 'the typed letters');
    await outbound.post(channel, reply([text('New reply from Ana')]));
    const shown = screen();
    expect(shown.slice(-3)).toEqual(['── post 1 in #general ──', 'New reply from Ana', 'scout> hel']);
    // Exactly one prompt on the screen: the one below the post.
    expect(shown.filter((line) => line.startsWith('scout>'))).toEqual(['scout> hel']);

    input.write('p\r');
    await until(() => screen().some((line) => line.includes('/scout creators:')), 'the help');
    await until(() => screen().at(-1) === PROMPT.trimEnd(), 'the prompt after the help');
  });

  it('draws it again below a post when nothing was typed', { timeout: 20_000 }, async () => {
    const { outbound, screen } = await startShell();
    await outbound.postDirect(
      { platform: 'terminal', workspaceId: 'local', userId: 'me' },
      reply([text('80% of your cap')]),
    );
    expect(screen().slice(-2)).toEqual(['80% of your cap', PROMPT.trimEnd()]);
  });

  it('keeps a line typed while a command waits below the wait’s notice', { timeout: 20_000 }, async () => {
    // Two requests a minute: the search and its profiles take them, the lists wait for the next.
    const { screen } = await startShell({ allowance: 2 });
    input.write('creators category:Fitness\r');
    await until(() => screen().some((line) => /^1\. @/.test(line)), 'the results');
    input.write('lists\r');
    input.write('cred');
    await until(
      () => screen().some((line) => line.includes('The service is busy')),
      'the place in the queue',
    );
    // The notice is printed above what is being typed, which stays on the last line.
    expect(screen().at(-1)).toBe('cred');
    input.write('\x03');
  });
});

describe('terminal: Ctrl-C', () => {
  it('stops the shell by default', { timeout: 20_000 }, async () => {
    await startShell();
    input.write('hel');
    input.write('\x03');
    await ended;
  });

  it('does what the shell was given for it', { timeout: 20_000 }, async () => {
    let interrupted = 0;
    await startShell({ onInterrupt: () => (interrupted += 1) });
    input.write('\x03');
    await until(() => interrupted === 1, 'the interrupt');
  });
});
