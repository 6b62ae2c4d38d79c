/**
 * The forms door of the chat port: the form a line, a command's typed options or a form button opens, a
 * submission checked (and run) as the typed line would be, and the private form a command's secrets open. What a
 * form shows comes from the command's declaration (core/command/forms); adapters only lay it out.
 */
import { z } from 'zod';
import type { Platform } from '../actor.js';
import { needsRole } from '../command/dispatcher.js';
import {
  bareFormOf,
  commandFormId,
  FORM_KIND,
  type FormRequest,
  formButton,
  formSpec,
  lacksInput,
  openForm,
  readForm,
  readFormId,
} from '../command/forms/index.js';
import { tokenKind } from '../store/action-tokens.js';
import { buttons, FORM_MORE, type FormSpec, inputLabel, notice, reply } from '../ui/index.js';
import type { PersonRef } from './home.js';
import type { ChatParts } from './parts.js';
import type { FormCheck, FormDoor, FormSubmitted } from './port.js';

/** What the forms door is built from: the chat port's parts it reads. */
export type FormParts = Pick<
  ChatParts,
  'dispatcher' | 'registry' | 'store' | 'tenants' | 'clock' | 'settings'
>;

const gone = (): FormCheck => ({
  status: 'gone',
  reply: reply([notice('warning', 'This form expired: run the command again.')]),
});

/** Element kind of a stored secrets form (its payload: `secretForm`). */
const SECRET_FORM_KIND = 'scout.secret';
/**
 * How long a secrets form stays valid: as long as where its answer goes (Discord's interaction token, 15 minutes;
 * Slack's response_url, 30 minutes, less one for the answer).
 */
const SECRET_FORM_TTL_MS: Readonly<Record<Platform, number>> = {
  discord: 15 * 60_000,
  slack: 29 * 60_000,
  terminal: 15 * 60_000,
};

/** What a stored secrets form holds: the command, the options given and the secret fields' names, never a secret. */
const secretForm = z.object({
  family: z.string(),
  command: z.string(),
  given: z.record(z.string(), z.string()),
  fields: z.array(z.string()),
});

/** Creates the forms door. */
export function createFormDoor(parts: FormParts): FormDoor {
  const { dispatcher, registry, store, tenants, clock, settings } = parts;
  const open = (id: string, actor: PersonRef) =>
    openForm({ registry, lookup: (token) => store.actions.lookup(token, actor, clock.now()) }, id);

  /** The form a submission came from, as it was opened; null when it opens no more. */
  const formOf = async (submission: FormSubmitted): Promise<FormSpec | null> => {
    const { form } = submission;
    if (typeof form === 'string') return open(form, submission.actor);
    const def = registry.command(form.family, form.command);
    return def === undefined ? null : formSpec(def, { fixed: form.fixed });
  };

  /**
   * The answer to a form filled in wrongly where it cannot stay open: the problems, each naming its input, and a
   * button that opens the form again as it was filled in (a stored request, only the submitter's).
   */
  const fixReply = async (
    spec: FormSpec,
    submission: FormSubmitted,
    kept: { values: Record<string, string>; more: string },
    errors: Readonly<Record<string, string>>,
  ) => {
    const request: FormRequest = {
      family: spec.family,
      command: spec.command,
      title: spec.title,
      fixed: spec.fixed,
      ...kept,
    };
    const again = await store.actions.create({
      kind: FORM_KIND,
      payload: request,
      actor: submission.actor,
      personal: true,
      rerun: null,
      ttlMs: settings.elementTtlMs,
      now: clock.now(),
    });
    // A field's problem names it already ("Followers takes a range…"); one in "more options" says where it is.
    const problems = Object.entries(errors).map(([id, message]) =>
      id === FORM_MORE ? `${inputLabel(spec, id)}: ${message}` : message,
    );
    return reply([notice('error', problems.join('\n')), buttons(formButton('Fix the form', again))]);
  };

  /** The secrets form `id` names, still open to `actor`; null when it opens nothing for them. */
  const secretFormOf = async (id: string, actor: PersonRef) => {
    if (tokenKind(id) !== SECRET_FORM_KIND) return null;
    const found = await store.actions.lookup(id, actor, clock.now());
    const parsed = found.status === 'ok' ? secretForm.safeParse(found.record.payload) : null;
    return parsed?.success === true ? parsed.data : null;
  };

  const ofLine = (line: string) => {
    const def = bareFormOf(registry, line);
    return def === null ? null : formSpec(def);
  };

  return {
    isForm: (id) => readFormId(id) !== null,
    isSecretForm: (id) => tokenKind(id) === SECRET_FORM_KIND,
    open,
    ofLine,
    opens: (line) => ofLine(line) !== null || dispatcher.secretsNeeded(line) !== null,
    ofCommand({ family, command, options, more, asked }) {
      const def = registry.command(family, command);
      if (def === undefined) return null;
      const opens = asked || (more.trim() === '' && lacksInput(def, Object.keys(options)));
      const spec = opens ? formSpec(def, { values: { ...options }, more }) : null;
      return spec === null ? null : { id: commandFormId(def), spec };
    },
    async submit(submission) {
      const spec = await formOf(submission);
      const def = spec === null ? undefined : registry.command(spec.family, spec.command);
      if (spec === null || def === undefined) return gone();
      const { [FORM_MORE]: more = '', ...values } = submission.values;
      const platform = submission.actor.platform;
      const reading = readForm(def, spec, { values, more, platform }, submission.layout(spec));
      if (!reading.ok) {
        const { errors } = reading;
        const answer =
          submission.reopen === true ? await fixReply(spec, submission, { values, more }, errors) : null;
        return { status: 'wrong', errors, reply: answer };
      }
      return {
        status: 'ok',
        run: (invocation) =>
          dispatcher.form({ ...invocation, family: def.family, command: def.name, tokens: reading.tokens }),
      };
    },
    async secrets(line, person, actorOf) {
      const prompt = dispatcher.secretsNeeded(line);
      if (prompt === null) return null;
      const def = registry.command(prompt.family, prompt.command);
      if (def?.permission === 'admin') {
        const actor = await actorOf();
        const admin =
          actor.isAdmin ||
          (await tenants.isScoutAdmin(
            { platform: actor.platform, workspaceId: actor.workspaceId },
            actor.userId,
          ));
        if (!admin)
          return { status: 'refused', reply: reply([notice('warning', needsRole(def, actor.platform))]) };
      }
      const id = await store.actions.create({
        kind: SECRET_FORM_KIND,
        payload: {
          family: prompt.family,
          command: prompt.command,
          given: prompt.given,
          fields: prompt.fields.map((field) => field.name),
        } satisfies z.input<typeof secretForm>,
        actor: person,
        personal: true,
        rerun: null,
        ttlMs: SECRET_FORM_TTL_MS[person.platform],
        now: clock.now(),
      });
      return { status: 'form', id, prompt };
    },
    async submitSecrets({ id, actor, values }) {
      const form = await secretFormOf(id, actor);
      if (form === null) return gone();
      const secrets: Record<string, string> = {};
      const errors: Record<string, string> = {};
      for (const name of form.fields) {
        const value = values[name]?.trim() ?? '';
        if (value === '') errors[name] = 'Enter a value.';
        else secrets[name] = value;
      }
      if (Object.keys(errors).length > 0) {
        const missing = `Enter ${Object.keys(errors).join(', ')}: run the command again.`;
        return { status: 'wrong', errors, reply: reply([notice('error', missing)]) };
      }
      // A form is used once: a replayed submission, or one racing it, finds it used.
      if (!(await store.actions.consume(id, clock.now()))) return gone();
      const { family, command, given } = form;
      return {
        status: 'ok',
        run: (invocation) =>
          dispatcher.options({ ...invocation, family, command, options: { ...given, ...secrets } }),
      };
    },
  };
}
