/**
 * The submissions of Scout's own modals: a form (FORM_MODAL, or SECRET_MODAL for a private form, answered to its
 * author alone), checked before its acknowledgement so that a wrong value is shown on its input (response_action:
 * errors), that check reading the form's stored state and nothing else done first; and a typed value (VALUE_MODAL),
 * acknowledged at once and sent as the element's choice.
 * Both refuse anyone outside the deployment's tenants, and answer through the response_url, or the Web API once it
 * no longer answers.
 */
import type { App as BoltApp, webApi } from '@slack/bolt';
import type { Invocation } from '../../core/chat/index.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { postWith, respondTo, respondWith, type Source } from './deliver.js';
import { failed, type ListenerKit, RESPONSE_URL_MS } from './listener-kit.js';
import {
  blockErrors,
  FORM_MODAL,
  type FormMetadata,
  readFormMetadata,
  readFormState,
  SECRET_MODAL,
  slackLayout,
  type ViewState,
} from './modals.js';
import type { Person } from './people.js';
import { interactionPerson, outsideReply } from './tenancy.js';
import { threadedRespond } from './threads.js';
import { readValue, readValueMetadata, VALUE_MODAL } from './value-modal.js';

/** How a form's answers go out: where, with which deadline, and the sender that falls back on the Web API. */
interface FormAnswer {
  target: { channelId: string; userId: string; threadTs?: string };
  deadline: { deadline?: Date };
  answer: (shown: Reply) => Promise<void>;
}

/**
 * The way a submitted form is answered: through its response_url while it still answers, else the Web API; a
 * private form's answers go to its author alone.
 */
function formAnswer(
  kit: ListenerKit,
  client: webApi.WebClient,
  metadata: FormMetadata,
  submitter: { userId: string; privately: boolean },
): FormAnswer {
  const { chat, logger, apiUrl } = kit;
  // The response_url answers until 30 minutes after it was issued (a minute is kept for the answer); a form
  // submitted later, or one whose URL's age is unknown, is answered through the Web API, with no deadline. A
  // private form lasts no longer than its response_url: it is answered through it.
  const until = metadata.responseUrlAt === null ? 0 : metadata.responseUrlAt + RESPONSE_URL_MS;
  const left = submitter.privately ? RESPONSE_URL_MS : until - chat.clock.now().getTime();
  const { channelId, threadTs } = metadata;
  const target = { channelId, userId: submitter.userId, ...(threadTs === undefined ? {} : { threadTs }) };
  const viaUrl = left > 0 ? respondTo(metadata.responseUrl, apiUrl, logger) : null;
  // A form opened from a message in a thread is answered in that thread, as the press that opened it would be.
  let respond =
    viaUrl === null || threadTs === undefined
      ? viaUrl
      : threadedRespond(viaUrl, client, { ...target, threadTs });
  const deadline = respond === null ? {} : { deadline: new Date(Date.now() + left) };
  const source: Source = { message: false, ephemeral: false };
  const answer = async (reply: Reply) => {
    const shown: Reply = submitter.privately ? { ...reply, visibility: 'author' } : reply;
    if (respond !== null) {
      try {
        await respondWith(respond, shown, source, { client, channelId, threadTs });
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

/** The acknowledgement that keeps a form open with its problems shown on its inputs. */
interface ViewErrors {
  response_action: 'errors';
  errors: Record<string, string>;
}

/** A submitted form as its listener sees it: where it came from, who sent it, and how to answer. */
interface Submitted {
  metadata: FormMetadata;
  person: Person;
  privately: boolean;
  client: webApi.WebClient;
  /** The view's state, as Slack sent it. */
  state: unknown;
}

/**
 * The check of a submitted form, before the ack: the person admitted (anyone else is refused before anything the
 * form holds is read, so that it learns nothing from the checks of its fields), then the form checked. What it
 * answers: the ack to send, and the command to run after it, if any.
 */
async function checkForm(
  kit: ListenerKit,
  form: Submitted,
  out: FormAnswer,
): Promise<{ ack?: ViewErrors; after: () => Promise<void> }> {
  const { chat, logger, people } = kit;
  const { answer } = out;
  const none = async () => {};
  const { metadata, person, privately, client } = form;
  try {
    if (!(await people.admits(client, person)))
      return { after: () => kit.safely('refusal', null, () => answer(outsideReply())) };
    const { values, errors } = readFormState(form.state as ViewState);
    const checked = await chat.forms.submit({
      form: metadata.form,
      actor: { platform: 'slack', workspaceId: person.tenant.workspaceId, userId: person.userId },
      values,
      layout: slackLayout,
    });
    if (checked === null || checked.status === 'gone') {
      // A command's form gone (its command unknown) closes quietly; a private form says it expired.
      const reply = checked?.reply;
      return { after: privately && reply !== undefined ? () => answer(reply) : none };
    }
    const all = { ...(checked.status === 'wrong' ? checked.errors : {}), ...errors };
    if (checked.status === 'wrong' || Object.keys(all).length > 0)
      return { ack: { response_action: 'errors', errors: blockErrors(all, privately) }, after: none };
    return { after: () => runForm(kit, form, checked.run, out) };
  } catch (error) {
    // The error, never the submission: a private form's view state holds a secret.
    logger.error({ err: error }, 'Slack form submission failed');
    return { after: () => kit.safely('failure', null, () => answer(failed())) };
  }
}

/** Runs a checked form's command and answers it; a failure is answered in words. */
async function runForm(
  kit: ListenerKit,
  form: Submitted,
  run: (invocation: Invocation) => Promise<Reply>,
  out: FormAnswer,
): Promise<void> {
  const { logger, people } = kit;
  const { metadata, client, person } = form;
  const { answer, deadline, target } = out;
  let result: Reply;
  try {
    const actor = await people.actorOf(client, person);
    const channelId = metadata.channelId;
    const more = form.privately ? {} : { progress: answer, ...deadline, forms: true };
    result = await run({ actor, channelId, ...more });
  } catch (error) {
    logger.error({ err: error }, 'Slack form submission failed');
    result = failed();
  }
  try {
    await answer(result);
  } catch (error) {
    logger.warn({ err: error }, 'posting a form answer failed');
    const hint = 'Scout cannot post in this channel: invite it with /invite @Scout, then try again.';
    await postWith(client, reply([notice('warning', hint)]), target);
  }
}

/**
 * Registers the submission of a form, a command's (FORM_MODAL) or a private one (SECRET_MODAL, answered to its
 * author alone): checked before the ack, so that a wrong value is shown on its input (response_action: errors),
 * then run and answered.
 */
function registerFormSubmissions(bolt: BoltApp, kit: ListenerKit): void {
  for (const callbackId of [FORM_MODAL, SECRET_MODAL]) {
    bolt.view(callbackId, async ({ ack, body, view, client, context }) => {
      const metadata = readFormMetadata(view.private_metadata);
      if (metadata === null) {
        await kit.ackTimed('view', context, () => ack());
        return;
      }
      const privately = callbackId === SECRET_MODAL;
      const person = interactionPerson(body, context);
      const form = { metadata, person, privately, client, state: view.state.values };
      const out = formAnswer(kit, client, metadata, { userId: body.user.id, privately });
      const checked = await checkForm(kit, form, out);
      const { ack: errors } = checked;
      await kit.ackTimed('view', context, () => (errors === undefined ? ack() : ack(errors)));
      await kit.safely('form submission', null, checked.after);
    });
  }
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
