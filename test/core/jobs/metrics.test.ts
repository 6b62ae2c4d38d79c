/**
 * What the background jobs count, scraped from /metrics: reply notifications posted by platform, digest runs by
 * outcome.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { createDigestScheduler, createReplyPoller } from '../../../src/core/jobs/index.js';
import { createLogger } from '../../../src/core/logger.js';
import { createOpsServer, type OpsServer } from '../../../src/core/ops-server.js';
import { scrape } from '../ops/scrape.js';
import { recordingOutbound, silentLogger, startWorld, TEAM, type World } from './fixture.js';

let world: World;
let ops: OpsServer | undefined;
beforeEach(async () => {
  world = await startWorld('2026-03-10T07:58:00Z');
});
afterEach(async () => {
  await ops?.stop();
  ops = undefined;
  await world.close();
});

describe('job metrics', () => {
  it('counts reply notifications posted and digest runs', async () => {
    const app = await world.app();
    ops = createOpsServer({ app, port: 0, logger: createLogger({ level: 'silent' }) });
    await ops.start();
    const outbound = recordingOutbound();
    const deps = {
      app,
      outbound: new Map([['terminal' as const, outbound]]),
      logger: silentLogger(),
      clock: world.clock,
    };

    await app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'general', text: 'notify' });
    const poller = createReplyPoller(deps);
    await poller.poll();
    world.clock.advance(60_000);
    world.sandbox.addInboundReply(TEAM, { body: 'Happy to work with you.' });
    world.sandbox.addInboundReply(TEAM, { body: 'Send me the brief.' });
    expect(await poller.poll()).toBe(2);
    expect(await poller.deliver()).toBe(2);

    await app.dispatcher.text({
      actor: LOCAL_ACTOR,
      channelId: 'trends',
      text: 'digest 09:00 Europe/Paris top:3',
    });
    world.clock.set(new Date('2026-03-10T08:00:00Z'));
    expect(await createDigestScheduler(deps).check()).toBe(1);

    const metrics = await scrape(ops.port);
    expect(metrics.value('scout_notifications_total', { platform: 'terminal', outcome: 'posted' })).toBe(2);
    expect(metrics.value('scout_digest_runs_total', { outcome: 'posted' })).toBe(1);
    expect(
      metrics.value('scout_credits_charged_total', { operation: 'viral.search', state: 'confirmed' }),
    ).toBeGreaterThan(0);
    // Background calls wait in the rate limiter at their own priority.
    expect(
      metrics.observations('scout_rate_limiter_wait_seconds', { priority: 'background' }),
    ).toBeGreaterThan(0);
  });
});
