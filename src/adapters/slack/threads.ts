/**
 * Threads: the conversation id of a direct message or a mention's thread, and answers to a press on a message in a
 * thread. A response_url posts new messages at the top of the channel, whatever thread the message pressed is in
 * (https://github.com/slackapi/bolt-js/issues/963), so they go into the thread through the Web API instead; the
 * response_url still replaces or deletes the message pressed.
 */
import type { RespondArguments, RespondFn, types, webApi } from '@slack/bolt';

/**
 * The conversation of a direct message (`slack:im:<channel>`, or `slack:im:<channel>:<thread ts>` in a thread, an
 * assistant thread included) or of a person in a mention's thread (`slack:<channel>:<thread root ts>:<user>`): channel ids are unique
 * within a workspace (and an Enterprise Grid org), so each is unique within the tenant, and every message of a thread
 * names the same one.
 */
export function conversationOf(place: {
  channelId: string;
  threadTs?: string | undefined;
  im: boolean;
  userId: string;
}): string {
  const thread = place.threadTs === undefined ? '' : `:${place.threadTs}`;
  // In a channel's thread each person has a conversation of their own: one person's follow-up never refines or
  // presses a colleague's answer. A DM has one person in it.
  const person = place.im ? '' : `:${place.userId}`;
  return `slack:${place.im ? 'im:' : ''}${place.channelId}${thread}${person}`;
}

/**
 * The thread a pressed message is a reply in, from a block_actions payload (the container's `thread_ts`, or the
 * message's when it is not the thread's root); undefined for a message at the top of its channel.
 */
export function threadOfPress(body: {
  container?: unknown;
  message?: { ts?: string | undefined; thread_ts?: string | undefined } | undefined;
}): string | undefined {
  const container = (body.container ?? {}) as { thread_ts?: unknown; message_ts?: unknown };
  const ts =
    body.message?.ts ?? (typeof container.message_ts === 'string' ? container.message_ts : undefined);
  const thread =
    typeof container.thread_ts === 'string' && container.thread_ts !== ''
      ? container.thread_ts
      : body.message?.thread_ts;
  return thread === undefined || thread === '' || thread === ts ? undefined : thread;
}

/**
 * A respond function for a press on a message in the thread `threadTs`: replacing or deleting the message pressed
 * goes through the response_url; a new message is posted in the thread through the Web API, for the channel or,
 * ephemeral, for the person who pressed.
 */
export function threadedRespond(
  respond: RespondFn,
  client: webApi.WebClient,
  target: { channelId: string; threadTs: string; userId: string },
): RespondFn {
  return async (message: string | RespondArguments) => {
    const body: RespondArguments = typeof message === 'string' ? { text: message } : message;
    if (body.replace_original === true || body.delete_original === true) return respond(body);
    // Every message Scout responds with has blocks (render.ts), which the argument types leave out of a union.
    const { blocks } = body as { blocks?: (types.KnownBlock | types.Block)[] };
    const post = {
      channel: target.channelId,
      thread_ts: target.threadTs,
      text: body.text ?? '',
      ...(blocks === undefined ? {} : { blocks }),
    };
    if (body.response_type === 'in_channel') await client.chat.postMessage(post);
    else await client.chat.postEphemeral({ ...post, user: target.userId });
    // RespondFn resolves with the response_url's answer, which nothing here reads.
    return undefined as unknown as Awaited<ReturnType<RespondFn>>;
  };
}
