/**
 * The private form of a command's secrets (the service API key of `/scout connect key`): a form like a command's
 * own, whose fields are of the `secret` kind. It is kept in core under a token only its person can use, once,
 * holding the command, the options given and the secret fields' names, never a secret; it lasts as long as where
 * its answer goes (Discord's interaction token, 15 minutes; Slack's response_url, 30 minutes less one for the answer).
 */
import { z } from 'zod';
import type { Actor, Platform } from '../actor.js';
import { needsRole, type SecretPrompt } from '../command/dispatcher.js';
import { tokenKind } from '../store/action-tokens.js';
import { type FormField, type FormSpec, notice, reply } from '../ui/index.js';
import type { PersonRef } from './home.js';
import type { FormParts } from './parts.js';
import type { FormCheck, FormOpened, FormSubmitted } from './port.js';

/** Element kind of a stored private form (its payload: `privateForm`). */
const PRIVATE_FORM_KIND = 'scout.secret';

/** How long a private form stays valid, by platform. */
const PRIVATE_FORM_TTL_MS: Readonly<Record<Platform, number>> = {
  discord: 15 * 60_000,
  slack: 29 * 60_000,
  terminal: 15 * 60_000,
};

/** What a stored private form holds: the command, the options given and the secret fields' names, never a secret. */
const privateForm = z.object({
  family: z.string(),
  command: z.string(),
  given: z.record(z.string(), z.string()),
  fields: z.array(z.string()),
});

/** The answer to a submission of a form that opens no more. */
export const formGone = (privately: boolean): FormCheck => ({
  status: 'gone',
  privately,
  reply: reply([notice('warning', 'This form expired: run the command again.')]),
});

/** Whether `id` names a private form, read from the id alone. */
export function isPrivateFormId(id: string): boolean {
  return tokenKind(id) === PRIVATE_FORM_KIND;
}

/** The form that asks for `prompt`'s secrets: one required input of the secret kind per secret option. */
function privateSpec(prompt: SecretPrompt): FormSpec {
  const fields = prompt.fields.map(
    ({ name, label }): FormField => ({
      name,
      label,
      hint: '',
      description: '',
      allows: '',
      placeholder: '',
      required: true,
      input: 'secret',
      choices: [],
      also: [],
    }),
  );
  const { family, command, line } = prompt;
  return { family, command, title: `${family} ${command}`, line, fixed: {}, fields, more: '' };
}

/** Whether the person may run `prompt`'s command: anyone, or for a command for admins, an admin. */
async function refusal(parts: FormParts, prompt: SecretPrompt, actorOf: () => Promise<Actor>) {
  const def = parts.registry.command(prompt.family, prompt.command);
  if (def?.permission !== 'admin') return null;
  const actor = await actorOf();
  const tenant = { platform: actor.platform, workspaceId: actor.workspaceId };
  if (actor.isAdmin || (await parts.tenants.isScoutAdmin(tenant, actor.userId))) return null;
  return reply([notice('warning', needsRole(def, actor.platform))]);
}

/**
 * The private form a command line opens for the secrets it lacks, kept for `person`, or the refusal of someone
 * who may not run the command (nobody types a key into a form that would refuse it); null when it needs none.
 */
export async function openPrivateForm(
  parts: FormParts,
  line: string,
  person: PersonRef,
  actorOf: () => Promise<Actor>,
): Promise<FormOpened | null> {
  const prompt = parts.dispatcher.secretsNeeded(line);
  if (prompt === null) return null;
  const refused = await refusal(parts, prompt, actorOf);
  if (refused !== null) return { status: 'refused', reply: refused };
  const { family, command, given } = prompt;
  const payload = { family, command, given, fields: prompt.fields.map((field) => field.name) };
  const id = await parts.store.actions.create({
    kind: PRIVATE_FORM_KIND,
    payload: payload satisfies z.input<typeof privateForm>,
    actor: person,
    personal: true,
    rerun: null,
    ttlMs: PRIVATE_FORM_TTL_MS[person.platform],
    now: parts.clock.now(),
  });
  return { status: 'form', id, spec: privateSpec(prompt) };
}

/**
 * Checks a submitted private form: gone when its id opens nothing for its submitter (unknown, expired, another
 * person's, used), wrong with a problem per blank secret, else ok, the form used up at once.
 */
export async function submitPrivateForm(parts: FormParts, submission: FormSubmitted): Promise<FormCheck> {
  const { store, clock, dispatcher } = parts;
  const id = String(submission.form);
  const found = await store.actions.lookup(id, submission.actor, clock.now());
  const parsed = found.status === 'ok' ? privateForm.safeParse(found.record.payload) : null;
  if (parsed?.success !== true) return formGone(true);
  const secrets: Record<string, string> = {};
  const errors: Record<string, string> = {};
  for (const name of parsed.data.fields) {
    const value = submission.values[name]?.trim() ?? '';
    if (value === '') errors[name] = 'Enter a value.';
    else secrets[name] = value;
  }
  if (Object.keys(errors).length > 0) {
    const missing = `Enter ${Object.keys(errors).join(', ')}: run the command again.`;
    return { status: 'wrong', privately: true, errors, reply: reply([notice('error', missing)]) };
  }
  // A form is used once: a replayed submission, or one racing it, finds it used.
  if (!(await store.actions.consume(id, clock.now()))) return formGone(true);
  const { family, command, given } = parsed.data;
  const options = { ...given, ...secrets };
  return {
    status: 'ok',
    privately: true,
    run: (invocation) => dispatcher.options({ ...invocation, family, command, options }),
  };
}
