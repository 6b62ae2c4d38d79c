/**
 * The submissions of Scout's own modals: a command's form (FORM_MODAL), checked before its acknowledgement so that
 * a wrong value is shown on its input (response_action: errors), that check reading the form's stored state and
 * nothing else done first; and a typed value (VALUE_MODAL), acknowledged at once and sent as the element's choice.
 * Both refuse anyone outside the deployment's tenants, and answer through the response_url, or the Web API once it
 * no longer answers.
 */
import type { App as BoltApp, webApi } from '@slack/bolt';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { postWith, respondTo, respondWith, type Source } from './deliver.js';
import { failed, type ListenerKit, RESPONSE_URL_MS } from './listener-kit.js';
import {
  FORM_MODAL,
  type FormMetadata,
  readFormMetadata,
  readFormState,
  slackLayout,
  type ViewState,
} from './modals.js';
import { interactionPerson, outsideReply } from './tenancy.js';
import { threadedRespond } from './threads.js';
import { readValue, readValueMetadata, VALUE_MODAL } from './value-modal.js';

/** How a form's answers go out: where, with which deadline, and the sender that falls back on the Web API. */
interface FormAnswer {
  target: { channelId: string; userId: string; threadTs?: string };
  deadline: { deadline?: Date };
  answer: (shown: Reply) => Promise<void>;
}

/** The way a submitted form is answered: through its response_url while it still answers, else the Web API. */
function formAnswer(
  kit: ListenerKit,
  client: webApi.WebClient,
  metadata: FormMetadata,
  userId: string,
): FormAnswer {
  const { chat, logger, apiUrl } = kit;
  // The response_url answers until 30 minutes after it was issued (a minute is kept for the answer); a form
  // submitted later, or one whose URL's age is unknown, is answered through the Web API, with no deadline.
  const until = metadata.responseUrlAt === null ? 0 : metadata.responseUrlAt + RESPONSE_URL_MS;
  const left = until - chat.clock.now().getTime();
  const target = {
    channelId: metadata.channelId,
    userId,
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
  return { target, deadline, answer };
}

/** Registers the submission of a command's form: checked before the ack, then run and answered. */
function registerFormSubmissions(bolt: BoltApp, kit: ListenerKit): void {
  const { chat, logger, people, ackTimed, safely } = kit;
  bolt.view(FORM_MODAL, async ({ ack, body, view, client, context }) => {
    const metadata = readFormMetadata(view.private_metadata);
    if (metadata === null) {
      await ackTimed('view', context, () => ack());
      return;
    }
    const { target, deadline, answer } = formAnswer(kit, client, metadata, body.user.id);
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
}

/** Registers the submission of a typed value: acknowledged at once, then sent as the element's choice. */
function registerValueSubmissions(bolt: BoltApp, kit: ListenerKit): void {
  const { chat, logger, apiUrl, people, fresh, ackTimed, safely } = kit;
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
}

/** Registers the submissions of Scout's form and typed-value modals. */
export function registerViews(bolt: BoltApp, kit: ListenerKit): void {
  registerFormSubmissions(bolt, kit);
  registerValueSubmissions(bolt, kit);
}
