/**
 * The terminal's Outbound: background posts (reply notifications, digests) are printed with a header naming the
 * channel and, for a threaded post, the post it answers; their buttons are numbered as in replies.
 */
import type { Writable } from 'node:stream';
import type { ChannelRef, Outbound, PostedMessage } from '../../core/outbound.js';
import { type Reply, renderText, type TextAction } from '../../core/ui/index.js';

/** Options of createTerminalOutbound. */
export interface TerminalOutboundOptions {
  output: Writable;
  /** Receives the numbered buttons of each post, so a shell can make them pressable. */
  onActions?: (actions: readonly TextAction[]) => void;
}

/** Creates the terminal's Outbound. Message ids are a sequence; a thread is named by its first post. */
export function createTerminalOutbound(options: TerminalOutboundOptions): Outbound {
  let sequence = 0;
  return {
    platform: 'terminal',
    async post(channel: ChannelRef, reply: Reply, postOptions = {}): Promise<PostedMessage> {
      sequence += 1;
      const messageId = String(sequence);
      const parent = postOptions.inThreadOf;
      const threadId = parent === undefined ? messageId : (parent.threadId ?? parent.messageId);
      const rendered = renderText(reply);
      const where =
        parent === undefined ? `#${channel.channelId}` : `#${channel.channelId}, thread of post ${threadId}`;
      options.output.write(`\n── post ${messageId} in ${where} ──\n${rendered.text}\n`);
      if (rendered.actions.length > 0) options.onActions?.(rendered.actions);
      return { platform: 'terminal', channelId: channel.channelId, messageId, threadId };
    },
  };
}
