/**
 * Two Scout processes on one PostgreSQL database with a connection only one of them may hold: Discord's gateway
 * (one per bot token, or every interaction would reach both) and Slack's Socket Mode. Only the replica holding the
 * lease connects; the other is ready all the same (serving the operator endpoints itself); when the first is killed
 * with SIGKILL, the other connects instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { freshLocation } from '../core/store/engine.js';
import { createFakeDiscord } from '../fakes/discord-fake.js';
import { startFakeSlack } from '../fakes/slack-api.js';
import { REDIS_URL, type ScoutProcess, startScout, status, until } from './processes.js';

const KEY = `leader-replicas-${Date.now()}`;
const APP_ID = '223456789012345678';
const GUILD = '323456789012345678';
const CHANNEL = '423456789012345678';

/** A platform's fake, the environment that points Scout at it, and how many connections it was asked for. */
interface Platform {
  readonly env: Record<string, string>;
  /** Connections opened so far. */
  opened(): number;
  /** Connections open now. */
  open(): number;
  stop(): Promise<void>;
}

const PLATFORMS: Record<string, () => Promise<Platform>> = {
  async 'Discord gateway'() {
    const discord = createFakeDiscord({ applicationId: APP_ID, guildId: GUILD, channelId: CHANNEL });
    await discord.start();
    const identifies = () => discord.gatewayFrames.filter((frame) => frame.op === 2).length;
    return {
      env: {
        DISCORD_TOKEN: `${'x'.repeat(24)}.leader-replicas`,
        DISCORD_APPLICATION_ID: APP_ID,
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_GUILD_IDS: GUILD,
      },
      opened: identifies,
      // The fake does not tell open gateways apart; each identify is one connection.
      open: identifies,
      stop: () => discord.stop(),
    };
  },
  async 'Slack Socket Mode'() {
    const slack = await startFakeSlack();
    return {
      env: {
        SLACK_BOT_TOKEN: 'xoxb-test',
        SLACK_APP_TOKEN: 'xapp-leader-replicas',
        SLACK_API_URL: slack.apiUrl,
      },
      opened: () => slack.calls.filter((call) => call.method === 'apps.connections.open').length,
      open: () => slack.sockets,
      stop: () => slack.stop(),
    };
  },
};

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

describe.each(Object.keys(PLATFORMS))('%s with two replicas', (name) => {
  it('connects from one replica, and from the other when the first is killed', async () => {
    const sandbox: Sandbox = createSandbox({ keys: [{ key: KEY, teamId: 'team_leader', credits: 1000 }] });
    await sandbox.start();
    cleanups.push(() => sandbox.stop());
    const platform = await (PLATFORMS[name] as () => Promise<Platform>)();
    cleanups.push(() => platform.stop());
    const place = await freshLocation({ shared: true });
    cleanups.push(place.drop);
    const url = (place.location as { url: string }).url;
    const replicas: ScoutProcess[] = [];
    cleanups.push(async () => {
      for (const replica of replicas) replica.child.kill('SIGKILL');
    });
    const env = {
      DATABASE_URL: url,
      REDIS_URL,
      SCOUT_API_KEY: KEY,
      SCOUT_API_URL: sandbox.url,
      ...platform.env,
    };
    replicas.push(await startScout(env));
    replicas.push(await startScout(env));

    await until(() => platform.opened() >= 1, 'a connection');
    // Both replicas tried the lease several times meanwhile: still one connection.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(platform.opened()).toBe(1);
    expect(platform.open()).toBe(1);
    const holder = replicas.find((r) => r.output.includes('Lease won'));
    const other = replicas.find((r) => r !== holder);
    expect(holder).toBeDefined();
    // The replica without the connection is not judged by it: it is ready.
    expect(await status(other?.port ?? 0, '/readyz')).toBe(200);
    expect(await status(holder?.port ?? 0, '/readyz')).toBe(200);

    holder?.child.kill('SIGKILL');
    await until(() => platform.opened() === 2, 'the other replica to connect', 30_000);
    expect(other?.output).toContain('Lease won');
    await until(
      async () => (await status(other?.port ?? 0, '/readyz')) === 200,
      'the new holder to be ready',
    );
    expect(await status(other?.port ?? 0, '/healthz')).toBe(200);
  }, 120_000);
});
