/**
 * Bolt listeners: `/scout`, element presses, the search modals' submissions and the App Home. Every listener
 * acknowledges first, before any service call or database work, and answers through the response_url or the
 * Web API afterwards.
 */
import type { BlockAction, App as BoltApp, RespondFn, webApi } from '@slack/bolt';
import type { App } from '../../app.js';
import type { Actor } from '../../core/actor.js';
import { budgetOf, utcMonth } from '../../core/credits.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { postWith, respondWith, type Source } from './deliver.js';
import { type ChannelSubscription, homeView } from './home.js';
import {
  type ModalFamily,
  readMetadata,
  readSubmission,
  SEARCH_MODAL,
  searchModal,
  type ViewState,
} from './modals.js';
import { decodeSlackText } from './mrkdwn.js';
import { readValue, readValueMetadata, TYPE_PREFIX, VALUE_MODAL, valueModal } from './value-modal.js';

/** What the listeners need. */
export interface ListenerDeps {
  app: App;
  logger: Logger;
  listSubscriptions: (workspaceId: string) => Promise<ChannelSubscription[]>;
}

/** Admin flags read from users.info are kept this long. */
const ADMIN_TTL_MS = 10 * 60_000;
const ADMIN_CACHE_MAX = 5000;

/** Builds actors, asking Slack once in a while whether the person is a workspace admin or owner. */
function createActors(logger: Logger) {
  const admins = new Map<string, { admin: boolean; at: number }>();
  return async (
    client: webApi.WebClient,
    who: { teamId: string; userId: string; userName?: string | undefined },
  ): Promise<Actor> => {
    const key = `${who.teamId}:${who.userId}`;
    const cached = admins.get(key);
    let admin = cached !== undefined && Date.now() - cached.at < ADMIN_TTL_MS ? cached.admin : null;
    if (admin === null) {
      try {
        const info = await client.users.info({ user: who.userId });
        admin = info.user?.is_admin === true || info.user?.is_owner === true;
      } catch (error) {
        logger.warn({ err: error }, 'users.info failed; treating the person as a member');
        admin = false;
      }
      if (admins.size >= ADMIN_CACHE_MAX) admins.clear();
      admins.set(key, { admin, at: Date.now() });
    }
    return {
      platform: 'slack',
      workspaceId: who.teamId,
      userId: who.userId,
      ...(who.userName === undefined ? {} : { userName: who.userName }),
      isAdmin: admin,
    };
  };
}

/** The family whose bare command opens a modal, when `text` is one (`creators`, `viral search`). */
function modalFamily(app: App, text: string): ModalFamily | null {
  const words = text
    .trim()
    .replace(/^\/?scout\b\s*/i, '')
    .split(/\s+/)
    .filter((w) => w !== '');
  const [first, second] = words;
  if (first === undefined || words.length > 2) return null;
  const family = app.registry.family(first)?.name;
  if (family !== 'creators' && family !== 'viral') return null;
  return second === undefined || second.toLowerCase() === 'search' ? family : null;
}

/** A respond function for a response_url kept from an earlier interaction (Bolt posts JSON there the same way). */
function respondTo(url: string): RespondFn {
  return async (message) => {
    const body = typeof message === 'string' ? { text: message } : message;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`response_url answered ${res.status}`);
    return res;
  };
}

const failed = (): Reply =>
  reply([notice('error', 'Scout could not answer this time. Try again in a moment.')]);

/** Registers every listener on the Bolt app. */
export function registerListeners(bolt: BoltApp, deps: ListenerDeps): void {
  const { app, logger } = deps;
  const actorOf = createActors(logger);

  const safely = async (what: string, respond: RespondFn | null, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      logger.error({ err: error }, `Slack ${what} failed`);
      if (respond !== null) {
        await respondWith(respond, failed(), { message: false, ephemeral: false }).catch(() => {});
      }
    }
  };

  bolt.command('/scout', async ({ command, ack, respond, client }) => {
    await ack();
    const text = decodeSlackText(command.text ?? '');
    const family = modalFamily(app, text);
    await safely('command', respond, async () => {
      if (family !== null) {
        await client.views.open({
          trigger_id: command.trigger_id,
          view: searchModal({ family, channelId: command.channel_id }),
        });
        return;
      }
      const actor = await actorOf(client, {
        teamId: command.team_id,
        userId: command.user_id,
        userName: command.user_name,
      });
      const source: Source = { message: false, ephemeral: false };
      const answer = await app.dispatcher.text({
        actor,
        channelId: command.channel_id,
        text,
        progress: (interim) => respondWith(respond, interim, source),
      });
      await respondWith(respond, answer, source);
    });
  });

  bolt.action<BlockAction>(/.+/, async ({ ack, body, action, respond, client }) => {
    await ack();
    // Inputs inside our modals are read on submission, not on each change.
    if (body.view !== undefined && body.view.type === 'modal') return;
    const element = action as {
      action_id: string;
      value?: string;
      selected_option?: { value: string } | null;
    };
    const channelId = body.channel?.id ?? (body.container as { channel_id?: string }).channel_id ?? '';
    if (element.action_id.startsWith(TYPE_PREFIX)) {
      // The trigger_id lasts 3 seconds: the modal opens before anything else happens.
      await safely('modal open', respond, async () => {
        const metadata = {
          token: element.action_id.slice(TYPE_PREFIX.length),
          channelId,
          responseUrl: body.response_url ?? null,
        };
        await client.views.open({
          trigger_id: body.trigger_id,
          view: valueModal(metadata, decodeSlackText(element.value ?? 'Choose')),
        });
      });
      return;
    }
    await safely('action', respond, async () => {
      const value = element.selected_option?.value;
      const teamId = body.team?.id ?? body.user.team_id ?? '';
      const actor = await actorOf(client, {
        teamId,
        userId: body.user.id,
        userName: body.user.name ?? body.user.username,
      });
      const source: Source = {
        message: body.message !== undefined,
        ephemeral: (body.container as { is_ephemeral?: boolean }).is_ephemeral === true,
        choice: value !== undefined,
      };
      const answer = await app.dispatcher.action({
        actor,
        channelId,
        token: decodeSlackText(element.action_id),
        event: value === undefined ? {} : { value: decodeSlackText(value) },
        progress: (interim) =>
          respondWith(respond, { ...interim, replace: false }, { ...source, message: false }),
      });
      await respondWith(respond, answer, source);
    });
  });

  bolt.view(SEARCH_MODAL, async ({ ack, body, view, client }) => {
    const metadata = readMetadata(view.private_metadata);
    if (metadata === null) {
      await ack();
      return;
    }
    const submission = readSubmission(metadata.family, view.state.values as ViewState);
    if (!submission.ok) {
      await ack({ response_action: 'errors', errors: submission.errors });
      return;
    }
    await ack();
    await safely('modal submission', null, async () => {
      const actor = await actorOf(client, {
        teamId: body.team?.id ?? view.team_id,
        userId: body.user.id,
        userName: body.user.name,
      });
      const target = { channelId: metadata.channelId, userId: body.user.id };
      const answer = await app.dispatcher.options({
        actor,
        channelId: metadata.channelId,
        family: metadata.family,
        command: 'search',
        options: submission.options,
        progress: async (interim) => {
          await postWith(client, interim, target);
        },
      });
      try {
        await postWith(client, answer, target);
      } catch (error) {
        logger.warn({ err: error }, 'posting search results failed');
        const hint = reply([
          notice(
            'warning',
            'Scout cannot post in this channel: invite it with /invite @Scout, then search again.',
          ),
        ]);
        await postWith(client, hint, target);
      }
    });
  });

  bolt.view(VALUE_MODAL, async ({ ack, body, view, client }) => {
    await ack();
    const metadata = readValueMetadata(view.private_metadata);
    const value = readValue(view.state.values as ViewState);
    if (metadata === null || value === '') return;
    const respond = metadata.responseUrl === null ? null : respondTo(metadata.responseUrl);
    await safely('typed choice', respond, async () => {
      const actor = await actorOf(client, {
        teamId: body.team?.id ?? view.team_id,
        userId: body.user.id,
        userName: body.user.name,
      });
      const answer = await app.dispatcher.action({
        actor,
        channelId: metadata.channelId,
        token: metadata.token,
        event: { value },
      });
      if (respond !== null) {
        await respondWith(respond, answer, { message: true, ephemeral: true, choice: true });
      } else {
        const target = { channelId: metadata.channelId, userId: body.user.id };
        await postWith(client, { ...answer, visibility: 'author' }, target);
      }
    });
  });

  bolt.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    await safely('home', null, async () => {
      const teamId = body.team_id ?? '';
      const actor = { platform: 'slack' as const, workspaceId: teamId, userId: event.user };
      const scope = {
        actor,
        store: app.store,
        clock: app.clock,
        defaultDailyCap: app.settings.defaultDailyCap,
      };
      const { spentToday, cap } = budgetOf(scope);
      const spentThisMonth = app.store.ledger.spent(actor, utcMonth(app.clock.now()));
      const [balance, subscriptions] = await Promise.all([
        app.service.creators
          .search({ perPage: 1 })
          .then((result) => result.meta.creditsRemaining)
          .catch(() => null),
        deps.listSubscriptions(teamId).catch((error: unknown) => {
          logger.warn({ err: error }, 'listing channel subscriptions failed');
          return [];
        }),
      ]);
      await client.views.publish({
        user_id: event.user,
        view: homeView({ spentToday, spentThisMonth, dailyCap: cap, balance, subscriptions }),
      });
    });
  });
}
