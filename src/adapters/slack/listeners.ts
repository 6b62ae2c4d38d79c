/**
 * Bolt listeners: `/scout`, element presses, the modals' submissions, the App Home, link unfurls, direct messages
 * and mentions (conversations.ts) and, in many-team mode, leaving. Every listener acknowledges before any service
 * call, refuses anyone outside the deployment's tenants before anything else (before a modal opens; in an org-wide
 * install, anyone Slack does not name a person of the org), and answers through the response_url or the Web API
 * afterwards. A modal's submission is checked before its acknowledgement, so that a wrong value is shown on its input (response_action: errors):
 * that check reads the form's stored state, and nothing else is done first.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { BlockAction, App as BoltApp, Context, RespondFn, webApi } from '@slack/bolt';
import type { AckKind, ChatCore } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { type FormSpec, notice, type Reply, reply } from '../../core/ui/index.js';
import { arrivalOf, secondsSinceArrival } from './arrival.js';
import { registerConversations } from './conversations.js';
import { type AckAnswer, ackAnswer, postWith, respondTo, respondWith, type Source } from './deliver.js';
import { registerHome } from './home.js';
import type { SlackInstallations } from './installations.js';
import {
  FORM_MODAL,
  formModal,
  readFormMetadata,
  readFormState,
  slackLayout,
  type ViewState,
} from './modals.js';
import { decodeSlackText } from './mrkdwn.js';
import { createPeople, type Person } from './people.js';
import { openSecretForm, registerSecretForm } from './secret-form.js';
import { commandPerson, createGate, interactionPerson, outsideReply, registerLeaving } from './tenancy.js';
import { conversationOf, threadedRespond, threadOfPress } from './threads.js';
import { registerUnfurls } from './unfurls.js';
import { readValue, readValueMetadata, TYPE_PREFIX, VALUE_MODAL, valueModal } from './value-modal.js';

/** What the listeners need. */
export interface ListenerDeps {
  chat: ChatCore;
  logger: Logger;
  /** The OAuth installations (many-team mode); null in single-team mode. */
  installations: SlackInstallations | null;
  /** The configured Web API base (GovSlack, tests), whose origin response_urls may also be on; null for Slack's. */
  apiUrl: string | null;
}

const failed = (): Reply =>
  reply([notice('error', 'Scout could not answer this time. Try again in a moment.')]);

/**
 * A response URL works for 30 minutes (https://docs.slack.dev/interactivity/handling-user-interaction): work that
 * could only finish later is dropped, with a minute to spare for the answer itself.
 */
const RESPONSE_URL_MS = 29 * 60_000;
const responseDeadline = () => new Date(Date.now() + RESPONSE_URL_MS);

/** Registers every listener on the Bolt app. */
export function registerListeners(bolt: BoltApp, deps: ListenerDeps): void {
  const { chat, logger, apiUrl } = deps;
  const people = createPeople(createGate(chat.tenancy, deps.installations), logger);
  const secretForms = { chat, logger, people, apiUrl };
  // A new ephemeral message, never a replacement of the message pressed.
  const fresh: Source = { message: false, ephemeral: false };

  /**
   * Opens the modal of a form (the trigger_id lasts 3 seconds: nothing slow comes before it); a form too big to
   * carry is refused in words.
   */
  const openFormModal = async (
    client: webApi.WebClient,
    respond: RespondFn,
    triggerId: string,
    spec: FormSpec,
    where: { channelId: string; responseUrl: string | null; threadTs?: string | undefined },
  ) => {
    // The response_url was issued with the request that opens the form: its 30 minutes run from now.
    const issued = where.responseUrl === null ? null : chat.clock.now().getTime();
    const { threadTs, ...at } = where;
    const view = formModal(spec, {
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

  /** The invocation's arrival stamp, so its working message is timed from the request's arrival. */
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

  /** What an acknowledgement carries: the final answer, or the working message of work that goes on. */
  interface AtOnce {
    ack: AckAnswer;
    final: boolean;
  }

  /**
   * The answer of a line that needs nothing but the line (help, a mistake in it), or the working message of a
   * request already late for it, for a person Scout knows to be of a served tenant without asking anyone: sent in
   * the acknowledgement itself. Null otherwise.
   */
  const answerAtOnce = (text: string, person: Person, context: Context): AtOnce | null => {
    if (person.belongs.kind !== 'workspace' || !chat.tenancy.isServed(person.tenant)) return null;
    // Bolt found this workspace's installation to authorize the request (many-team mode).
    if (deps.installations !== null && context.botToken === undefined) return null;
    if (chat.forms.opens(text)) return null;
    const answer = chat.atOnce(text, { forms: true });
    if (answer !== null) {
      const ack = ackAnswer(answer);
      return ack === null ? null : { ack, final: true };
    }
    // A request that waited this long behind others (a burst) is due its working message: the ack carries it.
    const due = chat.settings.workingNoticeMs;
    const arrived = arrivalOf(context);
    if (due === null || arrived === undefined || performance.now() - arrived < due) return null;
    const working = chat.working(text);
    const ack = working === null ? null : ackAnswer(working);
    return ack === null ? null : { ack, final: false };
  };

  bolt.command('/scout', async ({ command, ack, respond, client, context }) => {
    const text = decodeSlackText(command.text ?? '');
    const person = commandPerson(command, context);
    let atOnce: AtOnce | null = null;
    try {
      atOnce = answerAtOnce(text, person, context);
    } catch (error) {
      logger.error({ err: error }, 'Slack command could not be answered at once');
    }
    const acked = atOnce?.ack;
    await ackTimed('command', context, () => (acked === undefined ? ack() : ack(acked)));
    if (atOnce?.final === true) return;
    const workingShown = atOnce !== null;
    // The acknowledgements of requests that arrived together go out before the work of any of them.
    await nextTurn();
    await safely('command', respond, async () => {
      if (!(await people.admits(client, person))) {
        await respondWith(respond, outsideReply(), fresh);
        return;
      }
      const spec = chat.forms.ofLine(text);
      if (spec !== null) {
        await openFormModal(client, respond, command.trigger_id, spec, {
          channelId: command.channel_id,
          responseUrl: command.response_url,
        });
        return;
      }
      // The trigger_id lasts 3 seconds; users.info, asked only of a command for admins, is asked at most every 10
      // minutes per person, so the check fits.
      const secret = await chat.forms.secrets(
        text,
        { platform: 'slack', workspaceId: person.tenant.workspaceId, userId: person.userId },
        () => people.actorOf(client, person),
      );
      if (secret?.status === 'refused') {
        await respondWith(respond, secret.reply, fresh);
        return;
      }
      if (secret !== null) {
        await openSecretForm({
          client,
          triggerId: command.trigger_id,
          form: secret,
          channelId: command.channel_id,
          responseUrl: command.response_url,
        });
        return;
      }
      const actor = await people.actorOf(client, person);
      const source: Source = { message: false, ephemeral: false };
      const answer = await chat.text({
        actor,
        channelId: command.channel_id,
        text,
        progress: (interim) => respondWith(respond, interim, source),
        deadline: responseDeadline(),
        ...receivedAt(context),
        workingShown,
        forms: true,
      });
      await respondWith(respond, answer, source, { client, channelId: command.channel_id });
    });
  });

  // Block Kit presses only: a legacy attachment's or a dialog's `actions` carry none of the fields read below.
  const press = { type: 'block_actions', action_id: /.+/ } as const;
  bolt.action<BlockAction>(press, async ({ ack, body, action, respond: viaUrl, client, context }) => {
    await ackTimed('action', context, () => ack());
    // A press on a reply in a thread (a DM's, a mention's): new messages go into the thread, not atop the channel.
    const threadTs = threadOfPress(body);
    const pressedIn = body.channel?.id ?? (body.container as { channel_id?: string }).channel_id ?? '';
    const respond =
      threadTs === undefined || pressedIn === ''
        ? viaUrl
        : threadedRespond(viaUrl, client, { channelId: pressedIn, threadTs, userId: body.user.id });
    await nextTurn();
    // Inputs inside our modals are read on submission, not on each change.
    if (body.view !== undefined && body.view.type === 'modal') return;
    const person = interactionPerson(body, context);
    const admitted = await people.admits(client, person).catch((error: unknown) => {
      logger.error({ err: error }, 'Slack action failed');
      return null;
    });
    if (admitted !== true) {
      const answer = admitted === false ? outsideReply() : failed();
      await safely('refusal', null, () => respondWith(respond, answer, fresh));
      return;
    }
    const element = action as {
      action_id: string;
      value?: string;
      selected_option?: { value: string } | null;
    };
    const channelId = pressedIn;
    // The conversation of the message pressed (a DM, a DM's or a mention's thread), as its messages name it: what
    // the press answers is what a follow-up typed there acts on. None for a message atop a channel.
    const im = channelId.startsWith('D');
    const conversation =
      channelId === '' || (!im && threadTs === undefined)
        ? undefined
        : conversationOf({ channelId, threadTs, im, userId: body.user.id });
    if (element.action_id.startsWith(TYPE_PREFIX)) {
      // The trigger_id lasts 3 seconds: the modal opens before anything else (but an org's membership question).
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
    if (chat.forms.isForm(element.action_id)) {
      // A form button: its form opens at once; one that opens nothing (expired, another person's) is answered below.
      const presser = {
        platform: 'slack' as const,
        workspaceId: person.tenant.workspaceId,
        userId: person.userId,
      };
      let opened = false;
      await safely('form open', respond, async () => {
        const spec = await chat.forms.open(element.action_id, presser);
        if (spec === null) return;
        opened = true;
        await openFormModal(client, respond, body.trigger_id, spec, {
          channelId,
          responseUrl: body.response_url ?? null,
          threadTs,
        });
      });
      if (opened) return;
    }
    await safely('action', respond, async () => {
      const value = element.selected_option?.value;
      const actor = await people.actorOf(client, person);
      const source: Source = {
        message: body.message !== undefined,
        ephemeral: (body.container as { is_ephemeral?: boolean }).is_ephemeral === true,
        choice: value !== undefined,
      };
      const answer = await chat.action({
        actor,
        channelId,
        ...(conversation === undefined ? {} : { conversation }),
        token: decodeSlackText(element.action_id),
        event: value === undefined ? {} : { value: decodeSlackText(value) },
        progress: (interim) =>
          respondWith(respond, { ...interim, replace: false }, { ...source, message: false }),
        deadline: responseDeadline(),
        ...receivedAt(context),
        forms: true,
      });
      await respondWith(respond, answer, source, { client, channelId, threadTs });
    });
  });

  bolt.view(FORM_MODAL, async ({ ack, body, view, client, context }) => {
    const metadata = readFormMetadata(view.private_metadata);
    if (metadata === null) {
      await ackTimed('view', context, () => ack());
      return;
    }
    // The response_url answers until 30 minutes after it was issued (a minute is kept for the answer); a form
    // submitted later, or one whose URL's age is unknown, is answered through the Web API, with no deadline.
    const until = metadata.responseUrlAt === null ? 0 : metadata.responseUrlAt + RESPONSE_URL_MS;
    const left = until - chat.clock.now().getTime();
    const target = {
      channelId: metadata.channelId,
      userId: body.user.id,
      ...(metadata.threadTs === undefined ? {} : { threadTs: metadata.threadTs }),
    };
    const viaUrl = left > 0 ? respondTo(metadata.responseUrl, apiUrl, logger) : null;
    // A form opened from a message in a thread is answered in that thread, as the press that opened it would be.
    let respond =
      viaUrl === null || metadata.threadTs === undefined
        ? viaUrl
        : threadedRespond(viaUrl, client, { ...target, threadTs: metadata.threadTs });
    const deadline = respond === null ? {} : { deadline: new Date(Date.now() + left) };
    const source: Source = { message: false, ephemeral: false };
    const answer = async (shown: Reply) => {
      if (respond !== null) {
        try {
          await respondWith(respond, shown, source, {
            client,
            channelId: target.channelId,
            threadTs: metadata.threadTs,
          });
          return;
        } catch (error) {
          // Refused (used up, expired) or unreachable: this answer and the next go through the Web API.
          logger.warn({ err: error }, 'A form’s response_url failed; answering through the Web API.');
          respond = null;
        }
      }
      await postWith(client, shown, target);
    };
    const person = interactionPerson(body, context);
    // The form opened only for insiders: a submission from anyone else is refused before anything it holds is
    // read, so that it learns nothing from the checks of its fields.
    const admitted = await people.admits(client, person).catch((error: unknown) => {
      logger.error({ err: error }, 'Slack form submission failed');
      return null;
    });
    if (admitted !== true) {
      await ackTimed('view', context, () => ack());
      await safely('refusal', null, () => answer(admitted === false ? outsideReply() : failed()));
      return;
    }
    // Checked before the modal closes, so that a wrong value is shown on its field (response_action: errors).
    const state = readFormState(view.state.values as ViewState);
    const checked = await chat.forms.submit({
      form: { family: metadata.family, command: metadata.command, fixed: metadata.fixed },
      actor: { platform: 'slack', workspaceId: person.tenant.workspaceId, userId: person.userId },
      values: state.values,
      layout: slackLayout,
    });
    if (checked.status === 'gone') {
      await ackTimed('view', context, () => ack());
      return;
    }
    const errors = { ...(checked.status === 'wrong' ? checked.errors : {}), ...state.errors };
    if (checked.status === 'wrong' || Object.keys(errors).length > 0) {
      await ackTimed('view', context, () => ack({ response_action: 'errors', errors }));
      return;
    }
    await ackTimed('view', context, () => ack());
    await safely('form submission', null, async () => {
      let result: Reply;
      try {
        const actor = await people.actorOf(client, person);
        result = await checked.run({
          actor,
          channelId: metadata.channelId,
          progress: answer,
          ...deadline,
          forms: true,
        });
      } catch (error) {
        logger.error({ err: error }, 'Slack form submission failed');
        result = failed();
      }
      try {
        await answer(result);
      } catch (error) {
        logger.warn({ err: error }, 'posting a form answer failed');
        const hint = reply([
          notice(
            'warning',
            'Scout cannot post in this channel: invite it with /invite @Scout, then try again.',
          ),
        ]);
        await postWith(client, hint, target);
      }
    });
  });

  bolt.view(VALUE_MODAL, async ({ ack, body, view, client, context }) => {
    await ackTimed('view', context, () => ack());
    const metadata = readValueMetadata(view.private_metadata);
    const value = readValue(view.state.values as ViewState);
    if (metadata === null || value === '') return;
    const respond = respondTo(metadata.responseUrl, apiUrl, logger);
    const target = { channelId: metadata.channelId, userId: body.user.id };
    await safely('typed choice', respond, async () => {
      const person = interactionPerson(body, context);
      // The form opened only for insiders: this refuses a submission from anyone else all the same.
      if (!(await people.admits(client, person))) {
        if (respond !== null) await respondWith(respond, outsideReply(), fresh);
        else await postWith(client, outsideReply(), target);
        return;
      }
      const actor = await people.actorOf(client, person);
      const answer = await chat.action({
        actor,
        channelId: metadata.channelId,
        token: metadata.token,
        event: { value },
      });
      if (respond !== null) {
        await respondWith(respond, answer, { message: true, ephemeral: true, choice: true });
      } else {
        await postWith(client, { ...answer, visibility: 'author' }, target);
      }
    });
  });

  registerSecretForm(bolt, secretForms);
  registerHome(bolt, { chat, logger, people });
  registerLeaving(bolt, { tenancy: chat.tenancy, installations: deps.installations, logger });
  registerUnfurls(bolt, { unfurls: chat.unfurls, logger, people });
  registerConversations(bolt, { chat, logger, people });
}
