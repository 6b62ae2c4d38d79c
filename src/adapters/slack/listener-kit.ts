/**
 * What the Bolt listeners share, built once by registerListeners and handed to each: the people of the served
 * tenants, the form modal opener, the timed acknowledgement, the arrival stamp, the guard that answers a failure
 * in words, and the response_url's deadline.
 */
import type { RespondFn, webApi } from '@slack/bolt';
import type { AckKind, ChatCore } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { type FormSpec, notice, type Reply, reply } from '../../core/ui/index.js';
import { arrivalOf, secondsSinceArrival } from './arrival.js';
import { respondWith, type Source } from './deliver.js';
import type { SlackInstallations } from './installations.js';
import { formModal } from './modals.js';
import { createPeople, type People } from './people.js';
import { createGate } from './tenancy.js';

/** What the listeners need. */
export interface ListenerDeps {
  chat: ChatCore;
  logger: Logger;
  /** The OAuth installations (many-team mode); null in single-team mode. */
  installations: SlackInstallations | null;
  /** The configured Web API base (GovSlack, tests), whose origin response_urls may also be on; null for Slack's. */
  apiUrl: string | null;
}

/** The answer of a request whose work failed. */
export const failed = (): Reply =>
  reply([notice('error', 'Scout could not answer this time. Try again in a moment.')]);

/**
 * A response URL works for 30 minutes (https://docs.slack.dev/interactivity/handling-user-interaction): work that
 * could only finish later is dropped, with a minute to spare for the answer itself.
 */
export const RESPONSE_URL_MS = 29 * 60_000;

/** When work answered through a response_url issued now must be done. */
export const responseDeadline = (): Date => new Date(Date.now() + RESPONSE_URL_MS);

/** Where a form modal's answer goes: the channel, the response_url it came with, the thread of a press. */
export interface FormWhere {
  channelId: string;
  responseUrl: string | null;
  threadTs?: string | undefined;
}

/** What the listeners share: their deps, the people they admit, and the helpers every kind of listener uses. */
export interface ListenerKit extends ListenerDeps {
  /** The people of the tenants served, with Slack's membership answers kept. */
  people: People;
  /** A new ephemeral message, never a replacement of the message pressed. */
  fresh: Source;
  /** Opens the modal of a form, or refuses in words a form too big to carry. */
  openFormModal(
    client: webApi.WebClient,
    respond: RespondFn,
    triggerId: string,
    form: { id: string; spec: FormSpec },
    where: FormWhere,
  ): Promise<void>;
  /** Acknowledges, then counts the time since the request arrived. */
  ackTimed(
    kind: AckKind,
    context: { readonly [key: string]: unknown },
    ack: () => Promise<void>,
  ): Promise<void>;
  /** The invocation's arrival stamp, so its working message is timed from the request's arrival. */
  receivedAt(context: { readonly [key: string]: unknown }): { receivedAt?: number };
  /** Runs work, logging a failure and answering it in words through `respond` when there is one. */
  safely(what: string, respond: RespondFn | null, work: () => Promise<void>): Promise<void>;
}

/** Builds the listeners' kit once from their deps. */
export function createListenerKit(deps: ListenerDeps): ListenerKit {
  const { chat, logger } = deps;
  const people = createPeople(createGate(chat.tenancy, deps.installations), logger);
  const fresh: Source = { message: false, ephemeral: false };

  /**
   * Opens the modal of a form (the trigger_id lasts 3 seconds: nothing slow comes before it); a form too big to
   * carry is refused in words.
   */
  const openFormModal = async (
    client: webApi.WebClient,
    respond: RespondFn,
    triggerId: string,
    form: { id: string; spec: FormSpec },
    where: FormWhere,
  ) => {
    // The response_url was issued with the request that opens the form: its 30 minutes run from now.
    const issued = where.responseUrl === null ? null : chat.clock.now().getTime();
    const { threadTs, ...at } = where;
    const view = formModal(form, {
      ...at,
      responseUrlAt: issued,
      ...(threadTs === undefined ? {} : { threadTs }),
    });
    if (view === null) {
      const tooLong = 'This form carries too much to open: type the command instead.';
      await respondWith(respond, reply([notice('error', tooLong)]), fresh);
      return;
    }
    await client.views.open({ trigger_id: triggerId, view });
  };

  /**
   * Acknowledges, then counts the time since the request arrived (the stamp Scout's server or the Socket Mode
   * receiver put in the context; the listener's own start when there is none).
   */
  const ackTimed = async (
    kind: AckKind,
    context: { readonly [key: string]: unknown },
    ack: () => Promise<void>,
  ): Promise<void> => {
    const startedAt = performance.now();
    await ack();
    chat.metrics.ack('slack', kind, secondsSinceArrival(context, startedAt));
  };

  const receivedAt = (context: { readonly [key: string]: unknown }) => {
    const arrived = arrivalOf(context);
    return arrived === undefined ? {} : { receivedAt: arrived };
  };

  const safely = async (what: string, respond: RespondFn | null, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      logger.error({ err: error }, `Slack ${what} failed`);
      if (respond !== null) {
        await respondWith(respond, failed(), fresh).catch(() => {});
      }
    }
  };

  return { ...deps, people, fresh, openFormModal, ackTimed, receivedAt, safely };
}
