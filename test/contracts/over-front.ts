/**
 * The parts of an Outbound driver for a platform reached over HTTP through a front (test/core/jobs/chat-world.ts):
 * restarts, crashes and lost answers, the same for every such platform.
 */
import type { Outbound } from '../../src/core/outbound.js';
import { crashAfterLanding, type Front } from '../core/jobs/chat-world.js';
import { until } from '../core/jobs/fixture.js';
import type { OutboundDriver } from './outbound.js';

/** A running adapter: its Outbound, and how it stops. */
export interface Adapter {
  readonly outbound: Outbound;
  stop(): Promise<void>;
}

/** What the front-based parts are built from. */
export interface FrontOptions<A extends Adapter> {
  front: Front;
  /** Whether a request through the front is a post (the request that lands a message). */
  isPost: (method: string, path: string) => boolean;
  /** Starts a new adapter talking to the platform through the front (a process starting). */
  start: () => Promise<A>;
  /** What a long outage makes the platform forget, if anything. */
  outage?: () => void;
}

/** The parts of a driver made through a front, and the adapter running now. */
export type FrontParts<A extends Adapter> = Pick<
  OutboundDriver,
  'outbound' | 'restart' | 'loseAnswer' | 'crash'
> & { readonly adapter: A };

/** Builds restarts, crashes and lost answers on `options.front`, starting the first adapter. */
export async function overFront<A extends Adapter>(options: FrontOptions<A>): Promise<FrontParts<A>> {
  const { front, isPost } = options;
  let adapter = await options.start();
  // A post cut off by a crash fails in the dead process; nobody waits for it.
  const launch = (post: () => Promise<unknown>) => () => void post().catch(() => undefined);
  const comeBack = async () => {
    options.outage?.();
    adapter = await options.start();
  };
  return {
    get adapter() {
      return adapter;
    },
    get outbound() {
      return adapter.outbound;
    },
    async restart() {
      await adapter.stop();
      await comeBack();
    },
    async loseAnswer(post) {
      const before = front.held.length;
      front.lose = isPost;
      const settled = post().catch(() => undefined);
      await until(() => front.held.length > before, 'the post to land');
      front.lose = null;
      // The connection is cut once the platform has taken the post.
      front.held.splice(before, 1)[0]?.res.destroy();
      await settled;
    },
    async crash(post, when) {
      const stop = () => adapter.stop();
      if (when === 'after landing') await crashAfterLanding(front, isPost, launch(post), stop);
      else {
        const before = front.held.length;
        front.hold = isPost;
        launch(post)();
        await until(() => front.held.length > before, 'the post to start');
        await stop();
        front.hold = null;
      }
      await comeBack();
    },
  };
}
