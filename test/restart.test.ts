import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../src/adapters/terminal/shell.js';
import { type App, createApp } from '../src/app.js';
import { FAMILIES } from '../src/commands/index.js';
import { createLogger } from '../src/core/logger.js';
import { sql } from '../src/core/store/sql.js';
import type { Reply } from '../src/core/ui/index.js';
import { renderText } from '../src/core/ui/index.js';
import { createSandbox, type Sandbox } from '../src/sandbox/index.js';

const KEY = 'restart-key-0001';
let sandbox: Sandbox;
let dir: string;

const start = (databasePath: string, apiKey = KEY, process?: { host: string; pid: number }): Promise<App> =>
  createApp({
    ...(process === undefined ? {} : { process }),
    service: {
      apiKey,
      baseUrl: sandbox.url,
      mediaUrl: sandbox.mediaUrl,
      retry: { maxAttempts: 2, baseDelayMs: 5 },
    },
    databasePath,
    logger: createLogger({ level: 'silent' }),
    families: FAMILIES,
  });
const invocation = { actor: LOCAL_ACTOR, channelId: 'c' };
const textOf = (reply: Reply) => renderText(reply).text;
const tokenOf = (reply: Reply, label: string) =>
  renderText(reply).actions.find((a) => a.label === label)?.actionId;

beforeAll(async () => {
  sandbox = createSandbox({ keys: [{ key: KEY, teamId: 'team_restart', credits: 1000 }] });
  await sandbox.start();
  dir = mkdtempSync(join(tmpdir(), 'scout-restart-'));
});
afterAll(async () => {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a restart', () => {
  it('keeps buttons, search sessions, the profile cache and the ledger', async () => {
    const path = join(dir, 'scout.db');
    const first = await start(path);
    const shown = await first.dispatcher.text({
      ...invocation,
      text: 'creators category:Fitness followers:10k-100k',
    });
    const next = tokenOf(shown, 'Next');
    const spentBefore = sandbox.credits(KEY);
    expect(next).toBeDefined();
    await first.stop();

    const second = await start(path);
    const page2 = await second.dispatcher.action({ ...invocation, token: next as string });
    expect(textOf(page2)).toContain('6-10 of');
    const back = tokenOf(page2, 'Previous');
    const page1 = await second.dispatcher.action({ ...invocation, token: back as string });
    expect(textOf(page1)).toContain('1-5 of');
    // Page 2 bought 5 profiles; page 1 came from the cache kept across the restart.
    expect(sandbox.credits(KEY)).toBe(spentBefore - 5);
    const rows = (await second.store.db.one<{ n: number }>(sql`SELECT SUM(credits) AS n FROM credit_ledger`))
      ?.n;
    expect(rows).toBe(10);
    await second.stop();
  });
});

describe('service failures', () => {
  it('say what to do: out of credits, a bad key, a long rate limit, an outage', async () => {
    const app = await start(':memory:');
    sandbox.setCredits(KEY, 0);
    const broke = textOf(await app.dispatcher.text({ ...invocation, text: 'songs countries' }));
    expect(broke).toContain('out of credits or has no active subscription');
    sandbox.setCredits(KEY, 1000);
    sandbox.injectFaults(KEY, { kind: 'server-error', status: 503 }, 2);
    const down = textOf(await app.dispatcher.text({ ...invocation, text: 'outreach projects' }));
    expect(down).toMatch(/The service is unavailable \(HTTP 503\)[\s\S]*ref/);
    sandbox.injectFaults(KEY, { kind: 'rate-limit', retryAfterSeconds: 600 });
    const limited = textOf(await app.dispatcher.text({ ...invocation, text: 'songs global' }));
    expect(limited).toContain("The service's rate limit was reached. Try again in 600 s.");
    // While the key is held that long, a person is told at once and nothing is sent.
    const before = sandbox.requests(KEY).length;
    const waiting = textOf(await app.dispatcher.text({ ...invocation, text: 'lists' }));
    expect(waiting).toMatch(/rate limit was reached. Try again in (599|600) s/);
    expect(sandbox.requests(KEY).length).toBe(before);
    expect((await app.store.db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM credit_ledger`))?.n).toBe(0);
    await app.stop();

    const wrong = await start(':memory:', 'not-a-known-key');
    const rejected = textOf(await wrong.dispatcher.text({ ...invocation, text: 'lists' }));
    expect(rejected).toContain(
      'The service rejected the API key: it is wrong or revoked. Ask an admin to connect a valid one (/scout connect), or to set SCOUT_API_KEY where one key serves every team.',
    );
    await wrong.stop();
  });

  it('takes over at once the work of a process that died mid-command: a repeat runs instead of waiting', async () => {
    const path = join(dir, 'crash.db');
    // The first process runs on this host under a pid that no longer exists once it "dies".
    const first = await start(path, KEY, { host: hostname(), pid: 2 ** 22 + 17 });
    sandbox.injectFaults(KEY, { kind: 'timeout' });
    const hanging = first.dispatcher.text({ ...invocation, text: 'songs countries' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Seen from a live process on the same database, the claim is taken while its owner lives...
    const alive = await start(path, KEY, { host: 'another-host', pid: 1 });
    expect(textOf(await alive.dispatcher.text({ ...invocation, text: 'songs countries' }))).toContain(
      'Already working on that',
    );
    await alive.stop();
    // ...and released when a process starts on that host and finds its pid gone.
    const second = await start(path);
    const repeat = textOf(await second.dispatcher.text({ ...invocation, text: 'songs countries' }));
    expect(repeat).not.toContain('Already working on that');
    expect(repeat).toContain('United States');
    await second.stop();
    // The held request ends when the sandbox's fault lets go; the dead process's answer no longer matters.
    void hanging.catch(() => {});
    void first.stop().catch(() => {});
  }, 30_000);
});
