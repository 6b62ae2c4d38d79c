/**
 * Pacing of channel posts: Slack allows about one chat.postMessage per second per channel, so background posts
 * wait their turn per channel (bottleneck's Group, one limiter per channel). Interactive replies do not pass
 * through here.
 */
import Bottleneck from 'bottleneck';

/** Slack's pace for posting in one channel. */
export const POST_INTERVAL_MS = 1000;

/** Runs jobs one at a time per channel, at least `minTimeMs` apart. */
export interface ChannelPacer {
  schedule<T>(channelId: string, job: () => Promise<T>): Promise<T>;
  /**
   * Drops waiting jobs (they reject) and forgets every channel; later jobs start afresh. Posts already on the
   * wire are not waited for: a stop must not hang on a request Slack never answers.
   */
  stop(): Promise<void>;
}

/** Creates a pacer; idle channels are forgotten after five minutes. */
export function createChannelPacer(options: { minTimeMs?: number } = {}): ChannelPacer {
  const group = new Bottleneck.Group({ maxConcurrent: 1, minTime: options.minTimeMs ?? POST_INTERVAL_MS });
  return {
    schedule: (channelId, job) => group.key(channelId).schedule(job),
    async stop() {
      const pairs = group.limiters();
      await Promise.all(
        pairs.map(async ({ key, limiter }) => {
          void limiter.stop({ dropWaitingJobs: true }).catch(() => undefined);
          await group.deleteKey(key);
        }),
      );
    },
  };
}
