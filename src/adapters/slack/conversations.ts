/**
 * Scout in conversations: a direct message in the app's Messages tab (`message.im`, the assistant view's threads
 * included), an @mention in a channel (`app_mention`), and the suggested prompts of a new assistant thread
 * (`assistant_thread_started`). A message goes to the same entry as `/scout` (ChatCore's `text`), with the
 * conversation it belongs to, and is answered where it was said: in the DM (in its thread, if it was in one), or in
 * the mention's thread, where an answer for its author alone is ephemeral. Only people's own new messages are
 * answered: nothing with a `bot_id` (Scout's own posts, another app's), no edit, deletion, join or any other
 * subtype, so Scout never answers itself. Bolt acknowledges events before these listeners run.
 *
 * Plain `bolt.event` listeners rather than Bolt's `Assistant`: a message in an assistant thread is a `message.im`
 * event like any DM, answered once by the one message listener, through the same path; the Assistant class would
 * take every threaded DM away from it and keep its own thread context through conversations.replies, which Slack
 * rate-limits hard for apps outside the Marketplace.
 * https://docs.slack.dev/reference/events/message.im https://docs.slack.dev/reference/events/app_mention
 * https://docs.slack.dev/reference/events/assistant_thread_started
 */
import type { App as BoltApp, webApi } from '@slack/bolt';
import { type ChatCore, MESSAGE_MAX, TOO_LONG, WORDLESS } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { arrivalOf } from './arrival.js';
import { postWith } from './deliver.js';
import { ASSISTANT_PROMPTS, ASSISTANT_PROMPTS_TITLE } from './manifest.js';
import { decodeSlackText } from './mrkdwn.js';
import type { People } from './people.js';
import { eventPerson, messagePerson, outsideReply } from './tenancy.js';
import { conversationOf } from './threads.js';

/** What the conversation listeners need. */
export interface ConversationDeps {
  chat: ChatCore;
  logger: Logger;
  people: People;
}

const failed = (): Reply =>
  reply([notice('error', 'Scout could not answer this time. Try again in a moment.')]);

/** A person's new message, as the fields read here; null for anything else. */
interface Said {
  channel: string;
  user: string;
  text: string;
  ts: string;
  threadTs: string | undefined;
  team: string | undefined;
  userTeam: string | undefined;
}

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * A person's new message, or null: a bot's (Scout's own posts included: `bot_id`), one with any subtype (an edit, a
 * deletion, a join, a bot_message), a hidden one, or one missing its channel, author or ts.
 */
export function saidBy(event: unknown, botUserId: string | undefined): Said | null {
  if (typeof event !== 'object' || event === null) return null;
  const e = event as Record<string, unknown>;
  if (e.subtype !== undefined || e.bot_id !== undefined || e.bot_profile !== undefined || e.hidden === true)
    return null;
  const channel = stringOf(e.channel);
  const user = stringOf(e.user);
  const ts = stringOf(e.ts);
  if (channel === undefined || user === undefined || ts === undefined || user === botUserId) return null;
  return {
    channel,
    user,
    ts,
    text: typeof e.text === 'string' ? e.text : '',
    threadTs: stringOf(e.thread_ts),
    team: stringOf(e.team),
    userTeam: stringOf(e.user_team),
  };
}

const USER_ID = /^[A-Z0-9]+$/;

/**
 * The request a message makes: Scout's mentions taken out (every `<@BOT>`, or the leading mention when Scout's user
 * id is unknown), then Slack's markup reversed as for `/scout` (decodeSlackText), trimmed.
 */
export function requestOf(text: string, botUserId: string | undefined): string {
  const mention =
    botUserId !== undefined && USER_ID.test(botUserId)
      ? new RegExp(`[ \\t]*<@${botUserId}(?:\\|[^<>]*)?>[ \\t]*`, 'g')
      : /^\s*<@[UW][A-Z0-9]+(?:\|[^<>]*)?>[ \t]*/;
  return decodeSlackText(text.replace(mention, ' ')).trim();
}

/** Whether a request says anything: a letter or a digit, once emoji codes (`:tada:`) are taken out. */
export const saysSomething = (request: string): boolean =>
  /[\p{L}\p{N}]/u.test(request.replace(/:[\w+'-]+:/g, ' '));

/** Registers the direct message, mention and assistant thread listeners. */
export function registerConversations(bolt: BoltApp, deps: ConversationDeps): void {
  const { chat, logger, people } = deps;

  /** Where a message is answered, and the conversation it belongs to. */
  interface Place {
    channelId: string;
    threadTs: string | undefined;
    /** A direct message: every answer is simply posted, only its author and Scout being there. */
    im: boolean;
  }

  const deliver = (client: webApi.WebClient, answer: Reply, place: Place, userId: string) =>
    postWith(client, place.im ? { ...answer, visibility: 'channel' } : answer, {
      channelId: place.channelId,
      userId,
      ...(place.threadTs === undefined ? {} : { threadTs: place.threadTs }),
    });

  /** Answers a person's message: the outsider's refusal, a hint, a note, or what `chat.text` answers. */
  const answer = async (
    client: webApi.WebClient,
    context: { readonly [key: string]: unknown; teamId?: string; enterpriseId?: string },
    teamId: string | undefined,
    said: Said,
    place: Place,
  ) => {
    const send = (shown: Reply) => deliver(client, shown, place, said.user);
    try {
      const person = messagePerson(
        { user: said.user, team: said.team, user_team: said.userTeam },
        teamId,
        context,
      );
      if (!(await people.admits(client, person))) {
        await send(outsideReply());
        return;
      }
      const botUserId = typeof context.botUserId === 'string' ? context.botUserId : undefined;
      const request = requestOf(said.text, botUserId);
      if (request.length > MESSAGE_MAX) {
        await send(reply([notice('warning', TOO_LONG)], { visibility: 'author' }));
        return;
      }
      if (!saysSomething(request)) {
        await send(reply([notice('info', WORDLESS)], { visibility: 'author' }));
        return;
      }
      const actor = await people.actorOf(client, person);
      const arrived = arrivalOf(context);
      const shown = await chat.text({
        actor,
        channelId: place.channelId,
        text: request,
        conversation: conversationOf({ ...place, userId: said.user }),
        progress: (interim) => send(interim).then(() => {}),
        ...(arrived === undefined ? {} : { receivedAt: arrived }),
        forms: true,
      });
      await send(shown);
    } catch (error) {
      logger.error({ err: error }, 'Slack message failed');
      await send(failed()).catch((posting: unknown) =>
        logger.warn({ err: posting }, 'Slack could not be told the message failed'),
      );
    }
  };

  bolt.event('message', async ({ event, body, client, context }) => {
    if ((event as { channel_type?: unknown }).channel_type !== 'im') return;
    const said = saidBy(event, context.botUserId);
    if (said === null) return;
    // In the DM, or in the DM's thread (an assistant thread is one).
    await answer(client, context, body.team_id, said, {
      channelId: said.channel,
      threadTs: said.threadTs,
      im: true,
    });
  });

  bolt.event('app_mention', async ({ event, body, client, context }) => {
    const said = saidBy(event, context.botUserId);
    // Slack sends no app_mention for a direct message (message.im answers it): a DM's channel is left alone anyway.
    if (said === null || said.channel.startsWith('D')) return;
    await answer(client, context, body.team_id, said, {
      channelId: said.channel,
      threadTs: said.threadTs ?? said.ts,
      im: false,
    });
  });

  bolt.event('assistant_thread_started', async ({ event, body, client, context }) => {
    const thread = (event as { assistant_thread?: Record<string, unknown> }).assistant_thread ?? {};
    const channelId = stringOf(thread.channel_id);
    const threadTs = stringOf(thread.thread_ts);
    const userId = stringOf(thread.user_id);
    if (channelId === undefined || threadTs === undefined || userId === undefined) return;
    try {
      if (!(await people.admits(client, eventPerson(userId, body.team_id, context)))) return;
      // thread_ts belongs to the assistant view (the manifest's assistant_view), which Scout's app has.
      await client.assistant.threads.setSuggestedPrompts({
        channel_id: channelId,
        thread_ts: threadTs,
        title: ASSISTANT_PROMPTS_TITLE,
        prompts: ASSISTANT_PROMPTS.map((prompt) => ({ title: prompt, message: prompt })),
      });
    } catch (error) {
      logger.warn({ err: error }, 'Slack suggested prompts failed');
    }
  });
}
