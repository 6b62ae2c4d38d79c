/**
 * The forms door of the chat port: the form a form id, a typed line or a command's typed options opens, and a
 * submission checked (and run) as the typed line would be. A command's form comes from its declaration
 * (core/command/forms); the private form of a command's secrets is private-forms.ts. Adapters only lay forms out.
 */
import type { Actor } from '../actor.js';
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
import { commandLine } from '../command/syntax.js';
import { buttons, FORM_MORE, type FormSpec, inputLabel, notice, reply } from '../ui/index.js';
import type { PersonRef } from './home.js';
import type { FormParts } from './parts.js';
import type { CommandTyped, FormCheck, FormDoor, FormOpened, FormSubmitted } from './port.js';
import { formGone, isPrivateFormId, openPrivateForm, submitPrivateForm } from './private-forms.js';

/**
 * Whether a command line opens a form where forms are shown: its command's own, named bare, or the private form
 * of the secrets it lacks. Reads nothing: fit for an acknowledgement.
 */
export function opensForm(parts: Pick<FormParts, 'dispatcher' | 'registry'>, line: string): boolean {
  return bareFormOf(parts.registry, line) !== null || parts.dispatcher.secretsNeeded(line) !== null;
}

/** The command's own form a command's typed options open: asked for, or short of what it needs; null otherwise. */
function typedForm(parts: FormParts, typed: CommandTyped): FormOpened | null {
  const def = parts.registry.command(typed.family, typed.command);
  if (def === undefined) return null;
  const { options, more, asked } = typed;
  const opens = asked || (more.trim() === '' && lacksInput(def, Object.keys(options)));
  const spec = opens ? formSpec(def, { values: { ...options }, more }) : null;
  return spec === null ? null : { status: 'form', id: commandFormId(def), spec };
}

/** The form a command line opens: its secrets' private form, else its command's own when it is named bare. */
async function lineForm(
  parts: FormParts,
  request: { line: string; typed?: CommandTyped; actor(): Promise<Actor> },
  person: PersonRef,
): Promise<FormOpened | null> {
  const secret = await openPrivateForm(parts, request.line, person, request.actor);
  if (secret !== null) return secret;
  if (request.typed !== undefined) return typedForm(parts, request.typed);
  const def = bareFormOf(parts.registry, request.line);
  const spec = def === null ? null : formSpec(def);
  return def === null || spec === null ? null : { status: 'form', id: commandFormId(def), spec };
}

/**
 * The answer to a form filled in wrongly where it cannot stay open: the problems, each naming its input, and a
 * button that opens the form again as it was filled in (a stored request, only the submitter's).
 */
async function fixReply(
  parts: FormParts,
  spec: FormSpec,
  actor: PersonRef,
  kept: { values: Record<string, string>; more: string },
  errors: Readonly<Record<string, string>>,
) {
  const { family, command, title, fixed } = spec;
  const request: FormRequest = { family, command, title, fixed, ...kept };
  const again = await parts.store.actions.create({
    kind: FORM_KIND,
    payload: request,
    actor,
    personal: true,
    rerun: null,
    ttlMs: parts.settings.elementTtlMs,
    now: parts.clock.now(),
  });
  // A field's problem names it already ("Followers takes a range…"); one in "more options" says where it is.
  const problems = Object.entries(errors).map(([id, message]) =>
    id === FORM_MORE ? `${inputLabel(spec, id)}: ${message}` : message,
  );
  return reply([notice('error', problems.join('\n')), buttons(formButton('Fix the form', again))]);
}

/** Checks a submission of a command's own form, as the typed line would be checked. */
async function submitCommandForm(parts: FormParts, submission: FormSubmitted): Promise<FormCheck> {
  const { registry, dispatcher } = parts;
  const { form, actor } = submission;
  const lookup = (token: string) => parts.store.actions.lookup(token, actor, parts.clock.now());
  const named = typeof form === 'string' ? undefined : registry.command(form.family, form.command);
  const spec =
    typeof form === 'string'
      ? await openForm({ registry, lookup }, form)
      : named === undefined
        ? null
        : formSpec(named, { fixed: form.fixed });
  const def = spec === null ? undefined : registry.command(spec.family, spec.command);
  if (spec === null || def === undefined) return formGone(false);
  const { [FORM_MORE]: more = '', ...values } = submission.values;
  const reading = readForm(def, spec, { values, more, platform: actor.platform }, submission.layout(spec));
  if (!reading.ok) {
    const { errors } = reading;
    const again =
      submission.reopen === true ? await fixReply(parts, spec, actor, { values, more }, errors) : null;
    return { status: 'wrong', privately: false, errors, reply: again };
  }
  return {
    status: 'ok',
    privately: false,
    run: (invocation) =>
      dispatcher.form({ ...invocation, family: def.family, command: def.name, tokens: reading.tokens }),
  };
}

/** Creates the forms door. */
export function createFormDoor(parts: FormParts): FormDoor {
  const { registry, store, clock } = parts;
  return {
    async open(opening, person) {
      if ('line' in opening) return lineForm(parts, opening, person);
      if ('command' in opening) {
        const { family, command, options, more } = opening.command;
        const line = commandLine(family, command, options, more);
        return lineForm(parts, { line, typed: opening.command, actor: opening.actor }, person);
      }
      const lookup = (token: string) => store.actions.lookup(token, person, clock.now());
      const spec = await openForm({ registry, lookup }, opening.id);
      return spec === null ? null : { status: 'form', id: opening.id, spec };
    },
    async submit(submission) {
      const { form } = submission;
      if (typeof form === 'string' && isPrivateFormId(form)) return submitPrivateForm(parts, submission);
      if (typeof form === 'string' && readFormId(form) === null) return null;
      return submitCommandForm(parts, submission);
    },
  };
}
