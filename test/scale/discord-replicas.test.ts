/**
 * Two Scout processes with the same Discord bot token on one PostgreSQL database: only the replica holding the lease
 * connects to Discord's gateway (one connection per token, so each interaction reaches Scout once); the other is
 * ready all the same, and when the first is killed with SIGKILL it connects instead.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { freshLocation } from '../core/store/engine.js';
import { createFakeDiscord, type FakeDiscord } from '../fakes/discord-fake.js';

const KEY = `discord-replicas-${Date.now()}`;
const APP_ID = '223456789012345678';
const GUILD = '323456789012345678';
const CHANNEL = '423456789012345678';
const REDIS_URL = process.env.SCOUT_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Replica {
  readonly port: number;
  readonly child: ChildProcess;
  output: string;
}

let sandbox: Sandbox;
let discord: FakeDiscord;
let drop: () => Promise<void> = async () => {};
const replicas: Replica[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const until = async (check: () => boolean | Promise<boolean>, what: string, ms = 60_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const status = async (port: number, path: string) => {
  try {
    const res = await request(`http://127.0.0.1:${port}${path}`);
    await res.body.text();
    return res.statusCode;
  } catch {
    return 0;
  }
};

async function startReplica(databaseUrl: string): Promise<Replica> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      SCOUT_API_KEY: KEY,
      SCOUT_API_URL: sandbox.url,
      DISCORD_TOKEN: `${'x'.repeat(24)}.discord-replicas`,
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_GUILD_IDS: GUILD,
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const replica: Replica = { port, child, output: '' };
  const keep = (chunk: Buffer) => {
    replica.output += chunk.toString('utf8');
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  await until(async () => (await status(port, '/healthz')) === 200, 'a replica to start');
  return replica;
}

/** How many times a client identified itself to the gateway: one per connection. */
const identifies = () => discord.gatewayFrames.filter((frame) => frame.op === 2).length;

beforeAll(async () => {
  sandbox = createSandbox({ keys: [{ key: KEY, teamId: 'team_discord_replicas', credits: 1000 }] });
  await sandbox.start();
  discord = createFakeDiscord({ applicationId: APP_ID, guildId: GUILD, channelId: CHANNEL });
  await discord.start();
  const place = await freshLocation({ shared: true });
  drop = place.drop;
  const url = (place.location as { url: string }).url;
  replicas.push(await startReplica(url));
  replicas.push(await startReplica(url));
}, 120_000);

afterAll(async () => {
  for (const replica of replicas) replica.child.kill('SIGKILL');
  await discord?.stop();
  await sandbox?.stop();
  await drop();
});

describe('Discord with two replicas', () => {
  it('connects one gateway, moved to the other replica when the first is killed', async () => {
    await until(() => identifies() >= 1, 'a gateway connection');
    // Both replicas tried the lease several times meanwhile: still one connection.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(identifies()).toBe(1);
    const holder = replicas.find((r) => r.output.includes('Lease won'));
    const other = replicas.find((r) => r !== holder);
    expect(holder).toBeDefined();
    // The replica without the gateway is not judged by it: it is ready.
    expect(await status(other?.port ?? 0, '/readyz')).toBe(200);
    expect(await status(holder?.port ?? 0, '/readyz')).toBe(200);

    holder?.child.kill('SIGKILL');
    await until(() => identifies() === 2, 'the other replica to connect', 30_000);
    expect(other?.output).toContain('Lease won');
    await until(
      async () => (await status(other?.port ?? 0, '/readyz')) === 200,
      'the new holder to be ready',
    );
  }, 90_000);
});
