/** The Slack adapter says at start which scopes of the manifest the installed app lacks. */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, missingScopes, type SlackAdapter } from '../../../src/adapters/slack/index.js';
import { BOT_SCOPES } from '../../../src/adapters/slack/manifest.js';
import { createLogger } from '../../../src/core/logger.js';
import { until } from '../../core/jobs/fixture.js';
import { type FakeSlack, INSTALLED_SCOPES, startFakeSlack } from '../../fakes/slack-api.js';
import { SECRET, startWorld, type World } from './helpers.js';

let world: World | null = null;
let slack: FakeSlack | null = null;
let adapter: SlackAdapter | null = null;

afterEach(async () => {
  await adapter?.stop();
  await slack?.stop();
  await world?.stop();
  adapter = null;
  slack = null;
  world = null;
});

/** Starts the adapter against a fake Slack whose token has `scopes`; returns a reader of the warnings logged. */
async function startWith(scopes: readonly string[]): Promise<() => Array<Record<string, unknown>>> {
  world = await startWorld();
  slack = await startFakeSlack({ scopes });
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  adapter = createSlackAdapter({
    config: {
      botToken: 'xoxb-test',
      oauth: null,
      signingSecret: SECRET,
      appToken: null,
      apiUrl: slack.apiUrl,
      port: 0,
    },
    chat: world.app.chat,
    logger: createLogger({ level: 'warn', destination }),
  });
  await adapter.start();
  return () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.level === 40);
}

describe('Slack scopes', () => {
  it('the fake installs every scope the manifest asks for', () => {
    expect([...INSTALLED_SCOPES].sort()).toEqual(Object.keys(BOT_SCOPES).sort());
    expect(missingScopes(undefined)).toEqual([]);
  });

  it('an install from an older manifest, without the history scopes, is named at start', async () => {
    const warnings = await startWith(INSTALLED_SCOPES.filter((s) => !s.endsWith(':history')));
    await until(() => warnings().length > 0, 'the warning');
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.msg).toMatch(/reinstall/);
    expect(JSON.stringify(warnings()[0]?.missing)).toMatch(/channels:history.*groups:history/);
  });

  it('an install with every scope starts without a warning', async () => {
    const warnings = await startWith(INSTALLED_SCOPES);
    // Every auth.test made so far (Bolt's and the check's) has been answered and read.
    const calls = () => slack?.calls.filter((c) => c.method === 'auth.test').length ?? 0;
    await until(() => calls() >= 1, 'auth.test');
    await adapter?.stop();
    expect(warnings()).toEqual([]);
  });
});
