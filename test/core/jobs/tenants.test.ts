/**
 * Background jobs with many tenants: each tenant's subscriptions are polled with its own key and its replies go
 * only to its own channels; a tenant that leaves is no longer polled, while the others are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type App, createApp } from '../../../src/app.js';
import { connectFamily } from '../../../src/commands/tenancy.js';
import type { Actor } from '../../../src/core/actor.js';
import { createManualClock } from '../../../src/core/clock.js';
import { createJobs, type Jobs } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { renderText } from '../../../src/core/ui/index.js';
import {
  createSandbox,
  DEMO_KEY,
  DEMO_KEY_2,
  DEMO_TEAM_ID,
  DEMO_TEAM_ID_2,
  type Sandbox,
} from '../../../src/sandbox/index.js';
import { FAMILIES, recordingOutbound, until } from './fixture.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const admin = (workspaceId: string): Actor => ({
  platform: 'terminal',
  workspaceId,
  userId: `admin-${workspaceId}`,
  isAdmin: true,
});

const inbound = (sandbox: Sandbox, key: string) =>
  sandbox.requests(key).filter((r) => r.path === '/api/v1/agent/messages' && r.query.direction === 'inbound');

it('polls each tenant with its own key, posts its replies only to its channels, and stops for a tenant that left', async () => {
  const clock = createManualClock('2026-03-10T12:00:00Z');
  const sandbox = createSandbox({ now: () => clock.now().getTime() });
  await sandbox.start();
  const dir = mkdtempSync(join(tmpdir(), 'scout-tenant-jobs-'));
  const app: App = await createApp({
    service: { baseUrl: sandbox.url, mediaUrl: sandbox.mediaUrl, retry: { maxAttempts: 2, baseDelayMs: 5 } },
    tenancy: { kind: 'multi', encryptionKey: 'jobs-encryption-secret-0123456789abcdef' },
    databasePath: join(dir, 'scout.db'),
    logger: createLogger({ level: process.env.SCOUT_TEST_LOG ?? 'silent' }),
    clock,
    families: [...FAMILIES, connectFamily],
  });
  const outbound = recordingOutbound();
  const jobs: Jobs = createJobs({
    app,
    outbound: new Map([['terminal', outbound]]),
    logger: createLogger({ level: 'silent' }),
    pollIntervalMs: 10,
    digestCheckMs: 60_000,
  });
  cleanups.push(async () => {
    await jobs.stop();
    await app.stop();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const run = async (actor: Actor, channelId: string, text: string) =>
    renderText(await app.dispatcher.text({ actor, channelId, text })).text;

  // Two tenants of the terminal platform stand for two workspaces (any workspace is a tenant in this mode).
  expect(await run(admin('one'), 'c-one', `connect key ${DEMO_KEY}`)).toContain('Connected');
  expect(await run(admin('two'), 'c-two', `connect key ${DEMO_KEY_2}`)).toContain('Connected');
  expect(await run(admin('one'), 'c-one', 'notify')).toContain('earlier replies');
  expect(await run(admin('two'), 'c-two', 'notify')).toContain('earlier replies');
  await jobs.start();
  await until(
    () => inbound(sandbox, DEMO_KEY).length >= 2 && inbound(sandbox, DEMO_KEY_2).length >= 2,
    'polls',
  );

  clock.advance(60_000);
  const forOne = sandbox.addInboundReply(DEMO_TEAM_ID, { body: 'Reply for team one' });
  clock.advance(60_000);
  const forTwo = sandbox.addInboundReply(DEMO_TEAM_ID_2, { body: 'Reply for team two' });
  await until(() => outbound.posts.length === 2, 'both notifications');
  const where = (body: string) => outbound.posts.filter((p) => p.text.includes(body)).map((p) => p.channel);
  expect(where('Reply for team one')).toEqual([
    { platform: 'terminal', workspaceId: 'one', channelId: 'c-one' },
  ]);
  expect(where('Reply for team two')).toEqual([
    { platform: 'terminal', workspaceId: 'two', channelId: 'c-two' },
  ]);
  expect(forOne.id).not.toBe(forTwo.id);

  // Tenant one leaves: its key is forgotten and nothing more is asked with it; tenant two goes on.
  await app.tenants.leave({ platform: 'terminal', workspaceId: 'one' });
  expect(await app.store.tenants.account({ platform: 'terminal', workspaceId: 'one' })).toBeNull();
  const oneAfter = inbound(sandbox, DEMO_KEY).length;
  const twoAfter = inbound(sandbox, DEMO_KEY_2).length;
  await until(() => inbound(sandbox, DEMO_KEY_2).length >= twoAfter + 5, 'more polls of tenant two');
  expect(inbound(sandbox, DEMO_KEY).length).toBeLessThanOrEqual(oneAfter + 1);
  clock.advance(60_000);
  sandbox.addInboundReply(DEMO_TEAM_ID_2, { body: 'Second reply for team two' });
  await until(() => outbound.posts.length === 3, 'tenant two still notified');
});
