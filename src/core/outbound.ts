/**
 * Posting without an interaction: background jobs (reply notifications, digests) post replies to a channel
 * through the adapter of its platform, and thread later posts under an earlier one; budget alerts go to a person
 * privately (a Slack or Discord direct message, printed in the terminal).
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

/** How a reply is posted. */
export interface PostOptions {
  /** Post in the thread of this earlier message. */
  inThreadOf?: PostedMessage;
  /** Stable across retries and restarts: the platform (or a look-up) turns a second post of it into the first. */
  key?: string;
  /** An earlier attempt with the same key may have reached the platform without its answer reaching us. */
  mayHaveLanded?: boolean;
}

/** A person on a platform, to write to privately. */
export interface PersonRef {
  platform: Platform;
  workspaceId: string;
  userId: string;
}

/** How a direct message is sent: keyed like a channel post, never in a thread. */
export type DirectOptions = Omit<PostOptions, 'inThreadOf'>;

/** Posts replies to channels of one platform. */
export interface ChannelOutbound {
  readonly platform: Platform;
  /**
   * Posts `reply` in the channel, or in the thread of `inThreadOf` when given, at most once per `key`: a repeat of a
   * key whose earlier attempt may have reached the platform says so (`mayHaveLanded`), so that it is looked for.
   */
  post(channel: ChannelRef, reply: Reply, options?: PostOptions): Promise<PostedMessage>;
}

/** Posts replies to channels of one platform, and privately to its people. */
export interface Outbound extends ChannelOutbound {
  /**
   * Sends `reply` to the person privately (their direct-message channel with Scout), at most once per `key`; the
   * posted message names that channel.
   */
  postDirect(person: PersonRef, reply: Reply, options?: DirectOptions): Promise<PostedMessage>;
}
