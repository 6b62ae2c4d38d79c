/**
 * The private form for secret options (the service API key of `/scout connect key`): a command line that needs a
 * secret it does not carry opens a modal with one text input per secret; its submission runs the command with the
 * typed values and answers only its author. Core keeps the form (ChatCore.forms.secrets), the modal's metadata only
 * its id and where to answer; what is typed is never logged, echoed, stored or put into the metadata.
 */
import type { App as BoltApp, types, webApi } from '@slack/bolt';
import type { ChatCore, FormCheck, SecretPrompt } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, type Reply, reply } from '../../core/ui/index.js';
import { postWith, respondTo, respondWith } from './deliver.js';
import { SLACK } from './limits.js';
import { clip } from './mrkdwn.js';
import type { People } from './people.js';
import { interactionPerson, outsideReply } from './tenancy.js';

/** callback_id of the secret form. */
export const SECRET_MODAL = 'scout.secret';

/** What the form carries to its submission: the form's id and where to answer, never a secret. */
export interface SecretMetadata {
  /** The id core keeps the form under (ChatCore.forms.secrets): the command and the options given. */
  id: string;
  channelId: string;
  /** The command's response_url, for a private answer in the channel it ran in. */
  responseUrl: string | null;
}

const BLOCK_PREFIX = 'secret.';
const ACTION = 'value';
/** Slack's limit on an input block's label https://docs.slack.dev/reference/block-kit/blocks/input-block */
const LABEL_MAX = 2000;

const plain = (text: string): types.PlainTextElement => ({ type: 'plain_text', text });

/** The form `id` that asks for `prompt`'s secrets. */
export function secretModal(
  form: { id: string; prompt: SecretPrompt },
  where: { channelId: string; responseUrl: string | null },
): types.ModalView {
  const metadata: SecretMetadata = { id: form.id, ...where };
  return {
    type: 'modal',
    callback_id: SECRET_MODAL,
    private_metadata: JSON.stringify(metadata),
    title: plain(clip(form.prompt.line, SLACK.MODAL_TITLE_MAX)),
    submit: plain('Submit'),
    close: plain('Cancel'),
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: 'Only you see this form. Scout checks what you enter with the service, keeps it encrypted and never shows it again.',
        },
      },
      ...form.prompt.fields.map(
        (field): types.InputBlock => ({
          type: 'input',
          block_id: `${BLOCK_PREFIX}${field.name}`,
          label: plain(clip(field.label, LABEL_MAX)),
          element: { type: 'plain_text_input', action_id: ACTION },
        }),
      ),
    ],
  };
}

/** Reads the form's metadata back; null when it is not ours. */
export function readSecretMetadata(raw: string | undefined): SecretMetadata | null {
  try {
    const parsed: unknown = JSON.parse(raw ?? '');
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { id, channelId, responseUrl, fields } = parsed as Record<string, unknown>;
    if (typeof channelId !== 'string') return null;
    // A secrets form whose metadata held its fields rather than an id names no form kept in core: its submission is
    // answered as expired, privately, where it came from, rather than dropped.
    if (typeof id !== 'string' && !Array.isArray(fields)) return null;
    return {
      id: typeof id === 'string' ? id : '',
      channelId,
      responseUrl: typeof responseUrl === 'string' ? responseUrl : null,
    };
  } catch {
    return null;
  }
}

type State = Readonly<Record<string, Readonly<Record<string, { value?: string | null }>>>>;

/** The typed values by secret option name, as the form's inputs hold them. */
export function readSecretValues(state: State): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [block, actions] of Object.entries(state)) {
    const value = actions[ACTION]?.value;
    if (block.startsWith(BLOCK_PREFIX) && typeof value === 'string')
      values[block.slice(BLOCK_PREFIX.length)] = value;
  }
  return values;
}

/** Problems keyed by secret option name, keyed by the input blocks that show them (response_action: errors). */
export function blockErrors(errors: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors).map(([name, message]) => [`${BLOCK_PREFIX}${name}`, message]),
  );
}

/** What opening and submitting the form need. */
export interface SecretFormDeps {
  chat: ChatCore;
  logger: Logger;
  people: People;
  /** The configured Web API base, whose origin a kept response_url may also be on; null for Slack's. */
  apiUrl: string | null;
}

/**
 * Opens the form for a command line that needs secrets, for a person already admitted who may run the command
 * (ChatCore.forms.secrets said so).
 */
export async function openSecretForm(request: {
  client: webApi.WebClient;
  triggerId: string;
  form: { id: string; prompt: SecretPrompt };
  channelId: string;
  responseUrl: string;
}): Promise<void> {
  const view = secretModal(request.form, { channelId: request.channelId, responseUrl: request.responseUrl });
  await request.client.views.open({ trigger_id: request.triggerId, view });
}

/**
 * Registers the form's submission: the person admitted and the form checked before the ack (a blank secret is
 * shown on its input), then the command run and its author answered privately.
 */
export function registerSecretForm(bolt: BoltApp, deps: SecretFormDeps): void {
  const { chat, logger } = deps;
  bolt.view(SECRET_MODAL, async ({ ack, body, view, client, context }) => {
    const metadata = readSecretMetadata(view.private_metadata);
    if (metadata === null) {
      await ack();
      return;
    }
    const respond = respondTo(metadata.responseUrl, deps.apiUrl, logger);
    const answerPrivately = async (answer: Reply) => {
      const privately = { ...answer, visibility: 'author' as const };
      if (respond !== null) await respondWith(respond, privately, { message: false, ephemeral: false });
      else await postWith(client, privately, { channelId: metadata.channelId, userId: body.user.id });
    };
    const failed = async (error: unknown) => {
      // The error, never the submission: the view state holds the secret.
      logger.error({ err: error, form: metadata.id }, 'Slack secret form failed');
      const sorry = reply([notice('error', 'Scout could not answer this time. Try again in a moment.')]);
      await answerPrivately(sorry).catch(() => {});
    };
    const person = interactionPerson(body, context);
    let check: FormCheck;
    try {
      // The form opened only for insiders: anyone else is refused before the form is looked up.
      if (!(await deps.people.admits(client, person))) {
        await ack();
        await answerPrivately(outsideReply());
        return;
      }
      check = await chat.forms.submitSecrets({
        id: metadata.id,
        actor: { platform: 'slack', workspaceId: person.tenant.workspaceId, userId: person.userId },
        values: readSecretValues(view.state.values as State),
      });
    } catch (error) {
      await ack();
      await failed(error);
      return;
    }
    if (check.status === 'wrong') {
      await ack({ response_action: 'errors', errors: blockErrors(check.errors) });
      return;
    }
    await ack();
    try {
      if (check.status === 'gone') {
        await answerPrivately(check.reply);
        return;
      }
      const actor = await deps.people.actorOf(client, person);
      await answerPrivately(await check.run({ actor, channelId: metadata.channelId }));
    } catch (error) {
      await failed(error);
    }
  });
}
