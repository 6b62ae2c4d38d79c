/**
 * The ids of form buttons: a command's form as it is (`commandFormId`, needing no stored state), or a stored
 * request that fixes some options and fills in others (a token of kind `FORM_KIND`, its payload a `formRequest`).
 */
import { z } from 'zod';
import { InternalError } from '../../errors.js';
import { tokenKind } from '../../store/action-tokens.js';
import { type Button, button } from '../../ui/index.js';
import type { CommandDef } from '../types.js';

/** Element kind of a stored form request (see `formRequest`): its token opens the form it describes. */
export const FORM_KIND = 'scout.form';

/** Prefix of a form button that opens a command's form as it is: `scout.form-of:creators.search`. */
const COMMAND_FORM_PREFIX = 'scout.form-of:';

/** What a stored form button carries. */
export const formRequest = z.object({
  family: z.string(),
  command: z.string(),
  title: z.string().optional(),
  fixed: z.record(z.string(), z.string()).default({}),
  values: z.record(z.string(), z.string()).default({}),
  more: z.string().default(''),
});

/** A stored form request. */
export type FormRequest = z.input<typeof formRequest>;

/** The id of a button that opens `def`'s form, with nothing filled in; needs no stored state. */
export function commandFormId(def: Pick<CommandDef<unknown>, 'family' | 'name'>): string {
  return `${COMMAND_FORM_PREFIX}${def.family}.${def.name}`;
}

/** What a form id names: a command's form as it is, or a stored request (its token); null when not a form id. */
export function readFormId(
  id: string,
): { kind: 'command'; family: string; command: string } | { kind: 'stored'; token: string } | null {
  if (id.startsWith(COMMAND_FORM_PREFIX)) {
    const rest = id.slice(COMMAND_FORM_PREFIX.length);
    const dot = rest.indexOf('.');
    if (dot <= 0 || dot === rest.length - 1) return null;
    return { kind: 'command', family: rest.slice(0, dot), command: rest.slice(dot + 1) };
  }
  return tokenKind(id) === FORM_KIND ? { kind: 'stored', token: id } : null;
}

/**
 * A button that opens a form (`id`: `commandFormId`, or the token of a stored `FORM_KIND` request) where the
 * platform shows forms; where it does not, its press answers with the command line to type.
 */
export function formButton(label: string, id: string): Button {
  if (readFormId(id) === null) throw new InternalError(`Not a form id: ${id.slice(0, 40)}`);
  return button(label, id);
}
