/**
 * The terminal's Outbound: background posts (reply notifications, digests) are printed with a header naming the
 * channel and, for a threaded post, the post it answers; a direct message (a budget alert) with a header naming
 * its person. Buttons and a page's cards are numbered as in replies; given the shell, a post is printed above its
 * prompt (and what is being typed), and its buttons and cards are the ones typed words press.
 *
 * What it promises about keys: within one process a key is printed at most once (a repeat answers with the post
 * printed first, for the last KEYS_REMEMBERED keys), even when the write that printed it threw. The terminal keeps no
 * history to look in, so after a restart a post that may have been printed before it is printed again. Message ids
 * name their process (`3@1f9c2a`), so a post recorded by an earlier process (a thread kept in the database) is never
 * taken for one of this process.
 */
import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import type { ChannelRef, Outbound, PersonRef, PostedMessage } from '../../core/outbound.js';
import type { Reply } from '../../core/ui/index.js';
import { renderForTerminal } from './pages.js';
import type { TerminalShell } from './shell.js';

/** Keys remembered for repeats: far more than the background posts in flight or retried at any time. */
export const KEYS_REMEMBERED = 1000;

/** Options of createTerminalOutbound. */
export interface TerminalOutboundOptions {
  /** Where posts are printed when no shell shows them. */
  output: Writable;
  /** The shell that shows the posts: printed above its prompt, their buttons and cards made pressable. */
  shell?: Pick<TerminalShell, 'printPost'>;
  /** Names this process in its message ids; a random name by default. */
  run?: string;
}

/**
 * Creates the terminal's Outbound. Posts are numbered in the order printed; a message id is that number and the
 * name of the process (`<number>@<run>`), and a thread is named by its first post.
 */
export function createTerminalOutbound(options: TerminalOutboundOptions): Outbound {
  const run = options.run ?? randomUUID().slice(0, 6);
  let sequence = 0;
  // Insertion order is age: the oldest key is forgotten first.
  const printed = new Map<string, PostedMessage>();
  /** How a header names a post: its number in this process, its whole id for an earlier process's. */
  const label = (messageId: string) =>
    messageId.endsWith(`@${run}`) ? messageId.slice(0, -run.length - 1) : messageId;
  /**
   * Prints `reply` under `header` unless its key was printed before. The post is remembered before it is written:
   * a write that throws may have shown it all the same (its answer is lost, not the post), and the terminal cannot
   * look, so its retry answers with it rather than show it twice.
   */
  const once = (
    key: string | undefined,
    header: (number: number) => string,
    reply: Reply,
    message: (messageId: string) => PostedMessage,
  ): PostedMessage => {
    const known = key === undefined ? undefined : printed.get(key);
    if (known !== undefined) return known;
    const shown = renderForTerminal(reply);
    sequence += 1;
    const posted = message(`${sequence}@${run}`);
    if (key !== undefined) {
      printed.set(key, posted);
      if (printed.size > KEYS_REMEMBERED) printed.delete(printed.keys().next().value as string);
    }
    const text = `\n── ${header(sequence)} ──\n${shown.text}\n`;
    if (options.shell === undefined) options.output.write(text);
    else options.shell.printPost(text, shown);
    return posted;
  };
  return {
    platform: 'terminal',
    async post(channel: ChannelRef, reply: Reply, postOptions = {}): Promise<PostedMessage> {
      const parent = postOptions.inThreadOf;
      const thread = parent === undefined ? null : (parent.threadId ?? parent.messageId);
      const where =
        thread === null ? `#${channel.channelId}` : `#${channel.channelId}, thread of post ${label(thread)}`;
      return once(
        postOptions.key,
        (n) => `post ${n} in ${where}`,
        reply,
        (messageId) => ({
          platform: 'terminal',
          channelId: channel.channelId,
          messageId,
          threadId: thread ?? messageId,
        }),
      );
    },
    async postDirect(person: PersonRef, reply: Reply, directOptions = {}): Promise<PostedMessage> {
      return once(
        directOptions.key,
        (n) => `direct message ${n} to @${person.userId}`,
        reply,
        (messageId) => ({ platform: 'terminal', channelId: `@${person.userId}`, messageId, threadId: null }),
      );
    },
  };
}
