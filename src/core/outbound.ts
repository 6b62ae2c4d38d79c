/**
 * Posting without an interaction: background jobs (reply notifications, digests) post replies to a channel
 * through the adapter of its platform, and thread later posts under an earlier one.
 */
import type { Platform } from './actor.js';
import type { Reply } from './ui/index.js';

/** A channel on a platform. */
export interface ChannelRef {
  platform: Platform;
  workspaceId: string;
  channelId: string;
}

/** A message that was posted, so later posts can go into its thread. */
export interface PostedMessage {
  platform: Platform;
  channelId: string;
  /** Slack message ts, Discord message id, a sequence number in the terminal. */
  messageId: string;
  /** The thread the message opened or belongs to, when the platform has one (Slack thread_ts, Discord thread id). */
  threadId: string | null;
}

/** Posts replies to channels of one platform. */
export interface Outbound {
  readonly platform: Platform;
  /** Posts `reply` in the channel, or in the thread of `inThreadOf` when given. */
  post(channel: ChannelRef, reply: Reply, options?: { inThreadOf?: PostedMessage }): Promise<PostedMessage>;
}
