/**
 * The private form for secret options (the service API key of `/scout connect key`): a command line that needs a
 * secret it does not carry opens a modal with one text input per secret; its submission runs the command with the
 * typed values and answers only its author. What is typed is never logged, echoed or put into the modal's metadata.
 */
import type { App as BoltApp, RespondFn, types, webApi } from '@slack/bolt';
import type { ChatCore, SecretPrompt } from '../../core/chat/index.js';
import type { Logger } from '../../core/logger.js';
import { notice, reply, SLACK } from '../../core/ui/index.js';
import { postWith, respondTo, respondWith } from './deliver.js';
import { clip } from './mrkdwn.js';
import type { People } from './people.js';
import { interactionPerson, outsideReply } from './tenancy.js';

/** callback_id of the secret form. */
export const SECRET_MODAL = 'scout.secret';

/** What the form carries to its submission: the command and where to answer, never a secret. */
export interface SecretMetadata {
  family: string;
  command: string;
  /** The options typed on the command line besides the secrets. */
  given: Record<string, string>;
  /** The names of the secret options the form asks for. */
  fields: string[];
  channelId: string;
  /** The command's response_url, for a private answer in the channel it ran in. */
  responseUrl: string | null;
}

const BLOCK_PREFIX = 'secret.';
const ACTION = 'value';
/** Slack's limit on an input block's label https://docs.slack.dev/reference/block-kit/blocks/input-block */
const LABEL_MAX = 2000;

const plain = (text: string): types.PlainTextElement => ({ type: 'plain_text', text });

/** The form for `prompt`; null when its metadata would not fit Slack's limit (a very long command line). */
export function secretModal(
  prompt: SecretPrompt,
  where: { channelId: string; responseUrl: string | null },
): types.ModalView | null {
  const metadata: SecretMetadata = {
    family: prompt.family,
    command: prompt.command,
    given: { ...prompt.given },
    fields: prompt.fields.map((f) => f.name),
    ...where,
  };
  const privateMetadata = JSON.stringify(metadata);
  if (privateMetadata.length > SLACK.MODAL_PRIVATE_METADATA_MAX) return null;
  return {
    type: 'modal',
    callback_id: SECRET_MODAL,
    private_metadata: privateMetadata,
    title: plain(clip(`/scout ${prompt.family} ${prompt.command}`, SLACK.MODAL_TITLE_MAX)),
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
      ...prompt.fields.map(
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
    const { family, command, given, fields, channelId, responseUrl } = parsed as Record<string, unknown>;
    if (typeof family !== 'string' || typeof command !== 'string' || typeof channelId !== 'string')
      return null;
    if (!Array.isArray(fields) || !fields.every((f): f is string => typeof f === 'string')) return null;
    if (typeof given !== 'object' || given === null) return null;
    const options: Record<string, string> = {};
    for (const [key, value] of Object.entries(given)) if (typeof value === 'string') options[key] = value;
    return {
      family,
      command,
      given: options,
      fields,
      channelId,
      responseUrl: typeof responseUrl === 'string' ? responseUrl : null,
    };
  } catch {
    return null;
  }
}

type State = Readonly<Record<string, Readonly<Record<string, { value?: string | null }>>>>;

/** The typed secrets by option name, or an error per empty input for the modal to show. */
export function readSecrets(
  fields: readonly string[],
  state: State,
): { ok: true; values: Record<string, string> } | { ok: false; errors: Record<string, string> } {
  const values: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const name of fields) {
    const value = state[`${BLOCK_PREFIX}${name}`]?.[ACTION]?.value?.trim() ?? '';
    if (value === '') errors[`${BLOCK_PREFIX}${name}`] = 'Enter a value.';
    else values[name] = value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
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
  respond: RespondFn;
  triggerId: string;
  prompt: SecretPrompt;
  channelId: string;
  responseUrl: string;
}): Promise<void> {
  const view = secretModal(request.prompt, {
    channelId: request.channelId,
    responseUrl: request.responseUrl,
  });
  if (view === null) {
    const tooLong = 'This command line is too long for the form: leave out the other options and try again.';
    await respondWith(request.respond, reply([notice('error', tooLong)]), {
      message: false,
      ephemeral: false,
    });
    return;
  }
  await request.client.views.open({ trigger_id: request.triggerId, view });
}

/** Registers the form's submission: ack at once, then run the command and answer its author privately. */
export function registerSecretForm(bolt: BoltApp, deps: SecretFormDeps): void {
  const { chat, logger } = deps;
  bolt.view(SECRET_MODAL, async ({ ack, body, view, client, context }) => {
    const metadata = readSecretMetadata(view.private_metadata);
    if (metadata === null) {
      await ack();
      return;
    }
    const secrets = readSecrets(metadata.fields, view.state.values as State);
    if (!secrets.ok) {
      await ack({ response_action: 'errors', errors: secrets.errors });
      return;
    }
    await ack();
    const respond = respondTo(metadata.responseUrl, deps.apiUrl, logger);
    const answerPrivately = async (answer: ReturnType<typeof reply>) => {
      const privately = { ...answer, visibility: 'author' as const };
      if (respond !== null) await respondWith(respond, privately, { message: false, ephemeral: false });
      else await postWith(client, privately, { channelId: metadata.channelId, userId: body.user.id });
    };
    try {
      const person = interactionPerson(body, context);
      if (!(await deps.people.admits(client, person))) {
        await answerPrivately(outsideReply());
        return;
      }
      const actor = await deps.people.actorOf(client, person);
      const answer = await chat.options({
        actor,
        channelId: metadata.channelId,
        family: metadata.family,
        command: metadata.command,
        options: { ...metadata.given, ...secrets.values },
      });
      await answerPrivately(answer);
    } catch (error) {
      // The error, never the submission: the view state holds the secret.
      logger.error(
        { err: error, form: `${metadata.family} ${metadata.command}` },
        'Slack secret form failed',
      );
      const failed = reply([notice('error', 'Scout could not answer this time. Try again in a moment.')]);
      await answerPrivately(failed).catch(() => {});
    }
  });
}
