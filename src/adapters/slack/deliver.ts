/**
 * Sending replies: through an interaction's response_url (ephemeral or in the channel, replacing the message
 * pressed when the reply says so), and through the Web API for modal submissions and background posts.
 */
import type { RespondFn, webApi } from '@slack/bolt';
import type { ChannelRef, Outbound, PostedMessage } from '../../core/outbound.js';
import type { Reply } from '../../core/ui/index.js';
import type { ChannelPacer } from './pacer.js';
import { renderSlackMessages } from './render.js';

/** Where an interaction came from. */
export interface Source {
  /** The interaction is a press on a message (paging replaces it). */
  readonly message: boolean;
  /** That message is ephemeral: a picker or a confirmation only its author sees. */
  readonly ephemeral: boolean;
  /** The interaction is a choice made in a picker (a select, or a name typed in its modal). */
  readonly choice?: boolean;
}

const RESULT_NODES = new Set(['creator-card', 'viral-post-card', 'list-row', 'contact-row', 'pager']);

/** Whether a reply shows results (cards, rows, a pager) rather than a short answer. */
const hasResults = (reply: Reply) => reply.nodes.some((node) => RESULT_NODES.has(node.type));

const responseType = (reply: Reply) => (reply.visibility === 'channel' ? 'in_channel' : 'ephemeral');

/**
 * Sends a reply through the response_url. A reply marked `replace` updates the message pressed; an answer
 * to a press on an ephemeral message (a list picker, a confirmation) replaces that message, so confirmations
 * stay ephemeral, except results for the channel after a button press (a confirmed search), which are posted
 * there while the prompt goes away. A choice in a picker is always confirmed in place, ephemerally.
 */
export async function respondWith(respond: RespondFn, reply: Reply, source: Source): Promise<void> {
  const messages = renderSlackMessages(reply);
  const fromEphemeral = source.message && source.ephemeral && reply.replace !== true;
  const moveToChannel =
    fromEphemeral && source.choice !== true && reply.visibility === 'channel' && hasResults(reply);
  const replaceFirst = source.message && (reply.replace === true || (fromEphemeral && !moveToChannel));
  if (moveToChannel) await respond({ delete_original: true });
  for (const [index, message] of messages.entries()) {
    if (index === 0 && replaceFirst) {
      await respond({ replace_original: true, text: message.text, blocks: message.blocks });
    } else {
      await respond({
        response_type: responseType(reply),
        replace_original: false,
        text: message.text,
        blocks: message.blocks,
      });
    }
  }
}

/** Posts a reply in a channel with the Web API: ephemeral to `userId` for author replies. */
export async function postWith(
  client: webApi.WebClient,
  reply: Reply,
  target: { channelId: string; userId: string; threadTs?: string },
): Promise<string | null> {
  let first: string | null = null;
  for (const message of renderSlackMessages(reply)) {
    const thread = target.threadTs === undefined ? {} : { thread_ts: target.threadTs };
    if (reply.visibility === 'author') {
      await client.chat.postEphemeral({
        channel: target.channelId,
        user: target.userId,
        text: message.text,
        blocks: message.blocks,
        ...thread,
      });
    } else {
      const posted = await client.chat.postMessage({
        channel: target.channelId,
        text: message.text,
        blocks: message.blocks,
        ...thread,
      });
      first ??= posted.ts ?? null;
    }
  }
  return first;
}

/**
 * The Outbound of Slack: background jobs post to channels, paced per channel; later posts go into the first
 * one's thread.
 */
export function createSlackOutbound(client: () => webApi.WebClient, pacer: ChannelPacer): Outbound {
  return {
    platform: 'slack',
    async post(channel: ChannelRef, reply: Reply, options = {}): Promise<PostedMessage> {
      const threadTs = options.inThreadOf?.threadId ?? options.inThreadOf?.messageId;
      let first: string | null = null;
      for (const message of renderSlackMessages({ ...reply, visibility: 'channel' })) {
        const posted = await pacer.schedule(channel.channelId, () =>
          client().chat.postMessage({
            channel: channel.channelId,
            text: message.text,
            blocks: message.blocks,
            ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
          }),
        );
        first ??= posted.ts ?? null;
      }
      if (first === null) throw new Error(`Slack did not return the ts of the post in ${channel.channelId}`);
      return {
        platform: 'slack',
        channelId: channel.channelId,
        messageId: first,
        threadId: threadTs ?? first,
      };
    },
  };
}
