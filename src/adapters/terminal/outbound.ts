/**
 * The terminal's Outbound: background posts (reply notifications, digests) are printed with a header naming the
 * channel and, for a threaded post, the post it answers; a direct message (a budget alert) with a header naming
 * its person. Buttons are numbered as in replies.
 */
import type { Writable } from 'node:stream';
import type { ChannelRef, Outbound, PersonRef, PostedMessage } from '../../core/outbound.js';
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
  const print = (header: (id: string) => string, reply: Reply): string => {
    sequence += 1;
    const rendered = renderText(reply);
    options.output.write(`\n── ${header(String(sequence))} ──\n${rendered.text}\n`);
    if (rendered.actions.length > 0) options.onActions?.(rendered.actions);
    return String(sequence);
  };
  return {
    platform: 'terminal',
    async post(channel: ChannelRef, reply: Reply, postOptions = {}): Promise<PostedMessage> {
      const parent = postOptions.inThreadOf;
      const where =
        parent === undefined
          ? `#${channel.channelId}`
          : `#${channel.channelId}, thread of post ${parent.threadId ?? parent.messageId}`;
      const messageId = print((id) => `post ${id} in ${where}`, reply);
      const threadId = parent === undefined ? messageId : (parent.threadId ?? parent.messageId);
      return { platform: 'terminal', channelId: channel.channelId, messageId, threadId };
    },
    async postDirect(person: PersonRef, reply: Reply): Promise<PostedMessage> {
      const messageId = print((id) => `direct message ${id} to @${person.userId}`, reply);
      return { platform: 'terminal', channelId: `@${person.userId}`, messageId, threadId: null };
    },
  };
}
