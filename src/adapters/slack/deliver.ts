/**
 * Sending replies: through an interaction's response_url (ephemeral or in the channel, replacing the message
 * pressed when the reply says so), and through the Web API for modal submissions and background posts.
 */
import type { RespondFn, types, webApi } from '@slack/bolt';
import { PlatformError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { ChannelOutbound, ChannelRef, PostedMessage } from '../../core/outbound.js';
import { type FileAttachment, notice, type Reply, reply as replyOf } from '../../core/ui/index.js';
import type { ReplyNodeType } from '../../core/ui/model.js';
import { WebApiErrorCode } from './bolt.js';
import type { ChannelPacer } from './pacer.js';
import { renderSlackMessages, type SlackMessage } from './render.js';

/** Where an interaction came from. */
export interface Source {
  /** The interaction is a press on a message (paging replaces it). */
  readonly message: boolean;
  /** That message is ephemeral: a picker or a confirmation only its author sees. */
  readonly ephemeral: boolean;
  /** The interaction is a choice made in a picker (a select, or a name typed in its modal). */
  readonly choice?: boolean;
}

const RESULT_NODES = new Set<ReplyNodeType>(['card', 'pager']);

/** Whether a reply shows results (cards, a pager) rather than a short answer. */
const hasResults = (reply: Reply) => reply.nodes.some((node) => RESULT_NODES.has(node.type));

const responseType = (reply: Reply): 'in_channel' | 'ephemeral' =>
  reply.visibility === 'channel' ? 'in_channel' : 'ephemeral';

/** A slash command's acknowledgement that answers it (https://docs.slack.dev/interactivity/implementing-slash-commands). */
export interface AckAnswer {
  response_type: 'in_channel' | 'ephemeral';
  text: string;
  blocks: SlackMessage['blocks'];
}

const ackRenders = new WeakMap<Reply, AckAnswer | null>();

/**
 * The acknowledgement that answers a slash command at once, rendered once per answer object (an answer the
 * dispatcher keeps, such as help, is not rendered again); null for an answer that is more than one message or
 * carries files, which goes through the response_url.
 */
export function ackAnswer(reply: Reply): AckAnswer | null {
  const known = ackRenders.get(reply);
  if (known !== undefined) return known;
  const messages = renderSlackMessages(reply);
  const [only] = messages;
  const answer: AckAnswer | null =
    messages.length !== 1 || only === undefined || (reply.files?.length ?? 0) > 0
      ? null
      : { response_type: responseType(reply), text: only.text, blocks: only.blocks };
  ackRenders.set(reply, answer);
  return answer;
}

/** Where a reply's files are shared: the reply's channel, through the Web API client of its workspace. */
export interface FileTarget {
  readonly client: webApi.WebClient;
  readonly channelId: string;
  /** The thread the reply's messages went to, if any. */
  readonly threadTs?: string | undefined;
}

/** Platform errors of an upload that the person can do something about, and what to tell them. */
const UPLOAD_ERRORS: Readonly<Record<string, string>> = {
  not_in_channel: 'invite Scout to this channel (/invite @Scout), then run the command again',
  channel_not_found: 'invite Scout to this channel (/invite @Scout), then run the command again',
  missing_scope: 'Scout’s Slack app needs the files:write scope: reinstall it from the current manifest',
  file_upload_size_restricted: 'this workspace does not accept files that large',
};

const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Uploads one file to the channel: files.uploadV2 gets an upload URL, sends the bytes there, then shares it. */
async function upload(target: FileTarget, file: FileAttachment): Promise<void> {
  const common = { file: bufferOf(file.bytes), filename: file.name, title: file.title };
  await target.client.files.uploadV2(
    target.threadTs === undefined
      ? { ...common, channel_id: target.channelId }
      : { ...common, channel_id: target.channelId, thread_ts: target.threadTs },
  );
}

/** The note for an upload Slack refused for a reason the person can fix; the error again for any other. */
function uploadRefused(error: unknown, file: FileAttachment): Reply {
  const code = (error as { data?: { error?: unknown } }).data?.error;
  const help = typeof code === 'string' ? UPLOAD_ERRORS[code] : undefined;
  if (help === undefined) throw error;
  return replyOf([notice('warning', `Slack did not take ${file.name} (${code}): ${help}.`)]);
}

/** The id of the file files.uploadV2 uploaded: it answers `{ files: [completeUploadExternal's answer] }`. */
function uploadedId(result: unknown): string | undefined {
  const completions = (result as { files?: unknown }).files;
  const first = Array.isArray(completions) ? (completions[0] as { files?: unknown } | undefined) : undefined;
  const files = Array.isArray(first?.files) ? (first.files as Array<{ id?: unknown }>) : [];
  const id = files[0]?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Uploads a file without sharing it in any channel; only the app can see it, and it can show it in its own blocks
 * by reference. The file's id, or undefined when Slack's answer names none.
 */
export async function uploadUnshared(
  client: FileTarget['client'],
  file: FileAttachment,
): Promise<string | undefined> {
  const uploaded = await client.files.uploadV2({
    file: bufferOf(file.bytes),
    filename: file.name,
    title: file.title,
  });
  return uploadedId(uploaded);
}

/** An image block showing an uploaded image file by reference (its slack_file), titled `title`. */
export function fileImageBlock(id: string, title: string): types.ImageBlock {
  // Titles are at most FILE_TITLE_MAX (100) long, well within an image block's 2,000.
  return { type: 'image', slack_file: { id }, alt_text: title, title: { type: 'plain_text', text: title } };
}

/** Images an author-only reply shows privately, instead of sharing them (see privateImages). */
const isPrivateImage = (reply: Reply, file: FileAttachment) =>
  reply.visibility === 'author' && file.display === 'image';

/** A private message showing images uploaded for it, or a note saying why they could not be. */
export type PrivateImages = { text: string; blocks: types.KnownBlock[] } | Reply;

/**
 * The image files of an author-only reply: uploaded without being shared in any channel, then shown in a message
 * only the author sees, by reference (an image block's slack_file, https://docs.slack.dev/reference/block-kit/blocks/image-block).
 * Null when there are none.
 */
export async function privateImages(reply: Reply, target: FileTarget | null): Promise<PrivateImages | null> {
  const images = (reply.files ?? []).filter((file) => isPrivateImage(reply, file));
  if (images.length === 0) return null;
  if (target === null) {
    const names = images.map((file) => file.name).join(', ');
    return replyOf([notice('warning', `${names} cannot be shown from here.`)]);
  }
  const blocks: types.KnownBlock[] = [];
  for (const file of images) {
    try {
      const id = await uploadUnshared(target.client, file);
      if (id !== undefined) blocks.push(fileImageBlock(id, file.title));
    } catch (error) {
      return uploadRefused(error, file);
    }
  }
  return blocks.length === 0 ? null : { text: images.map((file) => file.title).join(', '), blocks };
}

/**
 * Shares a reply's files in its channel, after its messages (https://docs.slack.dev/messaging/working-with-files).
 * Returns a private note to send instead when a file could not be shared: Slack shares no file with one person only,
 * so an author-only reply's files are not shared (its images are shown privately instead, see privateImages); a
 * channel Scout is not in, or a missing scope, is explained.
 */
export async function shareFiles(reply: Reply, target: FileTarget | null): Promise<Reply | null> {
  const files = (reply.files ?? []).filter((file) => !isPrivateImage(reply, file));
  if (files.length === 0) return null;
  const names = files.map((file) => file.name).join(', ');
  if (reply.visibility === 'author') {
    return replyOf([notice('warning', `Slack cannot show a file to you alone, so ${names} was not shared.`)]);
  }
  if (target === null) return replyOf([notice('warning', `${names} cannot be shared from here.`)]);
  for (const file of files) {
    try {
      await upload(target, file);
    } catch (error) {
      return uploadRefused(error, file);
    }
  }
  return null;
}

/**
 * Sends a reply through the response_url, then shares its files in the channel of `files` (see shareFiles). A
 * reply marked `replace` updates the message pressed; an answer to a press on an ephemeral message (a list picker,
 * a confirmation) replaces that message, so confirmations stay ephemeral, except results for the channel after a
 * button press (a confirmed search), which are posted there while the prompt goes away. A choice in a picker is
 * always confirmed in place, ephemerally.
 */
export async function respondWith(
  respond: RespondFn,
  reply: Reply,
  source: Source,
  files: FileTarget | null = null,
): Promise<void> {
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
  const images = await privateImages(reply, files);
  if (images !== null && 'blocks' in images) {
    await respond({ response_type: 'ephemeral', replace_original: false, ...images });
  } else if (images !== null) {
    await respondWith(respond, images, { message: false, ephemeral: false });
  }
  const note = await shareFiles(reply, files);
  if (note !== null) await respondWith(respond, note, { message: false, ephemeral: false });
}

/** Slack's own domains, where its response_urls are (hooks.slack.com; hooks.slack-gov.com in GovSlack). */
const SLACK_DOMAINS = ['slack.com', 'slack-gov.com'];

/**
 * Whether Scout may post to `url` as a response_url: https on Slack's domains, or on the origin of the configured
 * Web API base (`apiUrl`: GovSlack, tests). Anything else is not Slack's, and is sent nothing.
 */
export function isResponseUrl(url: string, apiUrl: string | null): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username !== '' || parsed.password !== '') return false;
  if (apiUrl !== null && URL.canParse(apiUrl) && parsed.origin === new URL(apiUrl).origin) return true;
  if (parsed.protocol !== 'https:' || parsed.port !== '') return false;
  const host = parsed.hostname.toLowerCase();
  return SLACK_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/**
 * A respond function for a response_url kept in a modal's metadata (Bolt posts JSON there the same way); null
 * when there is none, or when it is not Slack's (see isResponseUrl; logged): the answer then goes through the Web
 * API.
 */
export function respondTo(url: string | null, apiUrl: string | null, logger: Logger): RespondFn | null {
  if (url === null) return null;
  if (!isResponseUrl(url, apiUrl)) {
    logger.warn('A response_url that is not Slack’s was ignored; answering through the Web API.');
    return null;
  }
  return async (message) => {
    const body = typeof message === 'string' ? { text: message } : message;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new PlatformError(`response_url answered ${res.status}`);
    return res;
  };
}

/** Posts a reply in a channel with the Web API (ephemeral to `userId` for author replies), then its files. */
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
  const files = { client, channelId: target.channelId, threadTs: target.threadTs };
  const images = await privateImages(reply, files);
  if (images !== null && 'blocks' in images) {
    const thread = target.threadTs === undefined ? {} : { thread_ts: target.threadTs };
    await client.chat.postEphemeral({ channel: target.channelId, user: target.userId, ...images, ...thread });
  } else if (images !== null) {
    await postWith(client, images, target);
  }
  const note = await shareFiles(reply, files);
  if (note !== null) await postWith(client, note, target);
  return first;
}

/** The event type of the metadata every background post carries, with its key. */
export const POST_EVENT_TYPE = 'scout_post';
/** How many recent messages of a channel are searched for a post that may have landed. */
export const LANDED_WINDOW = 200;
/** Replies of a thread read per page, and the most read: Slack lists a thread oldest first, so all are read. */
const THREAD_PAGE = 200;
export const THREAD_REPLIES_MAX = 1000;

/** The key a background post's part carries in its metadata. */
const partKey = (key: string, index: number) => (index === 0 ? key : `${key}#${index}`);

type Listed = webApi.ConversationsHistoryResponse['messages'];

/** The messages searched: the channel's latest, or a thread's replies up to THREAD_REPLIES_MAX. */
async function recentMessages(
  client: webApi.WebClient,
  channelId: string,
  threadTs: string | undefined,
): Promise<NonNullable<Listed>> {
  if (threadTs === undefined) {
    const { messages } = await client.conversations.history({
      channel: channelId,
      include_all_metadata: true,
      limit: LANDED_WINDOW,
    });
    return messages ?? [];
  }
  const all: NonNullable<Listed> = [];
  const pages = client.paginate('conversations.replies', {
    channel: channelId,
    ts: threadTs,
    include_all_metadata: true,
    limit: THREAD_PAGE,
  });
  for await (const page of pages) {
    all.push(...((page as webApi.ConversationsRepliesResponse).messages ?? []));
    if (all.length >= THREAD_REPLIES_MAX) break;
  }
  return all;
}

/** The ts of recent messages of the channel (or of the thread) by the key in their metadata. */
async function landedPosts(
  client: webApi.WebClient,
  channelId: string,
  threadTs: string | undefined,
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const message of await recentMessages(client, channelId, threadTs)) {
    // The response types leave event_payload open ({}); it is the object the post was sent with.
    const payload = message.metadata?.event_payload as Record<string, unknown> | undefined;
    const key = payload?.key;
    if (message.metadata?.event_type === POST_EVENT_TYPE && typeof key === 'string' && message.ts) {
      if (!found.has(key)) found.set(key, message.ts);
    }
  }
  return found;
}

/**
 * The Outbound of Slack: background jobs post to channels, paced per channel; later posts go into the first
 * one's thread. A keyed post carries its key in the message metadata; when an earlier attempt may have
 * landed, the recent messages are searched for it first, so a lost answer does not become a second post.
 * `clientFor` gives the Web API client with the bot token of the channel's workspace (the one bot token in
 * single-team mode, the workspace's installation in many-team mode).
 */
export function createSlackOutbound(
  clientFor: (workspaceId: string) => Promise<webApi.WebClient>,
  pacer: ChannelPacer,
  logger: Logger,
): ChannelOutbound {
  const landed = async (client: webApi.WebClient, channelId: string, threadTs: string | undefined) => {
    try {
      return await landedPosts(client, channelId, threadTs);
    } catch (error) {
      // Slack refused the read (an install without the history scopes, a channel Scout is not in): a possible
      // second post beats a notification held back for good. Network failures still fail the post, to retry.
      if ((error as { code?: unknown }).code !== WebApiErrorCode.PlatformError) throw error;
      logger.warn({ err: error, channel: channelId }, 'Slack history unreadable; posting without a look-up.');
      return new Map<string, string>();
    }
  };
  return {
    platform: 'slack',
    async post(channel: ChannelRef, reply: Reply, options = {}): Promise<PostedMessage> {
      const threadTs = options.inThreadOf?.threadId ?? options.inThreadOf?.messageId;
      const { key } = options;
      const client = await clientFor(channel.workspaceId);
      const found =
        key !== undefined && options.mayHaveLanded === true
          ? await landed(client, channel.channelId, threadTs)
          : new Map<string, string>();
      let first: string | null = null;
      for (const [index, message] of renderSlackMessages({ ...reply, visibility: 'channel' }).entries()) {
        const part = key === undefined ? undefined : partKey(key, index);
        const existing = part === undefined ? undefined : found.get(part);
        if (existing !== undefined) {
          first ??= existing;
          continue;
        }
        const posted = await pacer.schedule(channel.channelId, () =>
          client.chat.postMessage({
            channel: channel.channelId,
            text: message.text,
            blocks: message.blocks,
            ...(threadTs === undefined ? {} : { thread_ts: threadTs }),
            ...(part === undefined
              ? {}
              : { metadata: { event_type: POST_EVENT_TYPE, event_payload: { key: part } } }),
          }),
        );
        first ??= posted.ts ?? null;
      }
      if (first === null)
        throw new PlatformError(`Slack did not return the ts of the post in ${channel.channelId}`);
      return {
        platform: 'slack',
        channelId: channel.channelId,
        messageId: first,
        threadId: threadTs ?? first,
      };
    },
  };
}
