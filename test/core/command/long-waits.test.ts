/**
 * Long waits for the service's rate limit: a person is told when a command will wait more than 30 s, with a
 * Cancel button that drops it unsent; commands already queued when a long Retry-After arrives are answered at once
 * with when to try again; work whose answer could no longer be delivered is dropped, and the person is told.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_ACTOR } from '../../../src/adapters/terminal/shell.js';
import { type Reply, renderText } from '../../../src/core/ui/index.js';
import { type CuttingProxy, startCuttingProxy } from '../../fakes/cutting-proxy.js';
import { type Harness, startHarness, TEST_KEY } from '../../helpers/harness.js';

const songsRequests = (h: Harness) => h.requests().filter((r) => r.path.startsWith('/api/v1/songs')).length;
const textOf = (reply: Reply) => renderText(reply).text;

describe('long waits', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it('says when a command will wait more than 30 s, and Cancel drops it unsent', async () => {
    h = await startHarness({ settings: { repeatWindowMs: 0 } });
    const harness = h;
    harness.sandbox.injectFaults(TEST_KEY, { kind: 'rate-limit', retryAfterSeconds: 45 }, 1);
    let notice: ((reply: Reply) => void) | null = null;
    const told = new Promise<Reply>((resolve) => {
      notice = resolve;
    });
    const answer = harness.app.dispatcher.text({
      actor: LOCAL_ACTOR,
      channelId: 'c',
      text: 'songs countries',
      progress: async (reply) => notice?.(reply),
    });
    const waiting = await told;
    // The retry waits out the Retry-After in the queue: its place says so, with the wait it counts.
    expect(textOf(waiting)).toMatch(/The service is busy: yours is next, about 4\d s/);
    const cancelToken = renderText(waiting).actions.find((a) => a.label === 'Cancel')?.actionId;
    expect(cancelToken).toBeDefined();
    const pressed = await harness.app.dispatcher.action({
      actor: LOCAL_ACTOR,
      channelId: 'c',
      token: cancelToken as string,
    });
    expect(textOf(pressed)).toContain('Cancelled.');
    expect(textOf(await answer)).toContain('Cancelled while waiting for the service: nothing more was sent.');
    // Only the request the service refused was sent, and nothing was charged.
    expect(songsRequests(harness)).toBe(1);
    expect(await harness.spentToday()).toBe(0);
    expect(harness.sandbox.credits(TEST_KEY)).toBe(100_000);
  });

  it('lets Cancel stop only the wait: a call already sent runs to its end', async () => {
    let proxy: CuttingProxy | undefined;
    let songs = 0;
    h = await startHarness({
      settings: { repeatWindowMs: 0 },
      through: async (url) => {
        proxy = await startCuttingProxy(url, (_m, path) =>
          path.startsWith('/api/v1/songs') && ++songs === 2 ? 'slow' : 'pass',
        );
        return proxy.url;
      },
    });
    const harness = h;
    try {
      harness.sandbox.injectFaults(TEST_KEY, { kind: 'rate-limit', retryAfterSeconds: 31 }, 1);
      let notice: ((reply: Reply) => void) | null = null;
      const told = new Promise<Reply>((resolve) => {
        notice = resolve;
      });
      const answer = harness.app.dispatcher.text({
        actor: LOCAL_ACTOR,
        channelId: 'c',
        text: 'songs countries',
        progress: async (reply) => notice?.(reply),
      });
      const cancelToken = renderText(await told).actions.find((a) => a.label === 'Cancel')
        ?.actionId as string;
      // The wait is over and the call is on its way (its answer held back by the proxy): Cancel comes too late.
      while (songsRequests(harness) < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      const pressed = await harness.app.dispatcher.action({
        actor: LOCAL_ACTOR,
        channelId: 'c',
        token: cancelToken,
      });
      expect(textOf(pressed)).toContain('That is no longer waiting.');
      expect(textOf(await answer)).toContain('Countries with song charts');
      expect(await harness.spentToday()).toBe(10);
      expect(100_000 - harness.sandbox.credits(TEST_KEY)).toBe(10);
    } finally {
      await proxy?.stop();
    }
  }, 60_000);

  it('answers commands already queued at once when a Retry-After too long to wait arrives', async () => {
    // Two requests a minute: the first two commands take both, the third queues for a minute.
    h = await startHarness({ settings: { repeatWindowMs: 0 }, rateLimitPerMinute: 2 });
    const harness = h;
    await harness.type('lists');
    harness.sandbox.injectFaults(TEST_KEY, { kind: 'rate-limit', retryAfterSeconds: 300 }, 1);
    const run = (text: string) => harness.app.dispatcher.text({ actor: LOCAL_ACTOR, channelId: 'c', text });
    const answers = (await Promise.all([run('songs countries'), run('songs weeks country:us')])).map(textOf);
    for (const answer of answers) expect(answer).toMatch(/Try again in (29\d|300) s/);
    expect(songsRequests(harness)).toBe(1);
  }, 20_000);

  it('drops work whose answer could no longer be delivered, and says so', async () => {
    h = await startHarness({ settings: { repeatWindowMs: 0 } });
    const harness = h;
    harness.sandbox.injectFaults(TEST_KEY, { kind: 'rate-limit', retryAfterSeconds: 45 }, 1);
    const answer = await harness.app.dispatcher.text({
      actor: LOCAL_ACTOR,
      channelId: 'c',
      text: 'songs countries',
      deadline: new Date(Date.now() + 20_000),
    });
    expect(textOf(answer)).toContain('its answer could no longer reach you here');
    expect(songsRequests(harness)).toBe(1);
  });
});
