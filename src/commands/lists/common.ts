/** Shared pieces of the CRM families: the list and status options, statuses in words, client-schema reuse. */
import type { z } from 'zod';
import type { ParamSpec } from '../../core/command/params.js';
import { CRM_STATUSES, type CrmStatus } from '../../core/service/enums.js';
import { type OperationName, parseInput, ServiceInputError } from '../../core/service/index.js';
import { MISSING, TEXT_MAX, type TextNode, text } from '../../core/ui/index.js';
import { CRM_STATUS_LABELS, normalizeCrmStatus } from './crm-cards.js';

/** Stands in for an id that is only known once the list (or contact) reference is resolved. */
export const PENDING_ID = 'pending';

/** The `<list>` option: a list name (any case, quoted if it has spaces) or a list id. */
export const LIST_PARAM: ParamSpec = {
  kind: 'text',
  positional: true,
  required: true,
  description: 'A list name (any case; quoted if it has spaces) or a list id.',
  example: '"Spring Launch"',
  completedFrom: 'crm-lists',
};

/** A CRM status as people type it in examples and hints (`to_outreach`): the contract's value, lower case. */
export const typedStatus = (status: CrmStatus): string => status.toLowerCase();

/** The status of examples and hints. */
export const STATUS_EXAMPLE = typedStatus('NEGOTIATING');

/**
 * The `status:` option: one of the six CRM statuses, in any case, with or without underscores. Help and errors
 * name the allowed values from the option's own list.
 */
export const STATUS_PARAM: ParamSpec = {
  kind: 'choice',
  values: CRM_STATUSES,
  // The statuses in words, as people say them.
  synonyms: {
    'to outreach': 'TO_OUTREACH',
    'not contacted': 'TO_OUTREACH',
    'not contacted yet': 'TO_OUTREACH',
    contacted: 'OUTREACHED',
    'reached out': 'OUTREACHED',
    emailed: 'OUTREACHED',
    negotiation: 'NEGOTIATING',
    negotiate: 'NEGOTIATING',
    'in negotiation': 'NEGOTIATING',
    'working with': 'WORKING',
    'in progress': 'WORKING',
    active: 'WORKING',
    finished: 'DONE',
    completed: 'DONE',
    complete: 'DONE',
    canceled: 'CANCELLED',
    dropped: 'CANCELLED',
  },
  description: 'A CRM status, in any case.',
  example: STATUS_EXAMPLE,
};

/** A CRM status in words ("Negotiating"); an unknown one as sent, a missing one as a dash. */
export function statusLabel(status: string | null | undefined): string {
  const known = normalizeCrmStatus(status);
  if (known !== null) return CRM_STATUS_LABELS[known];
  return typeof status === 'string' && status.trim() !== '' ? status : MISSING;
}

/** The six statuses in words, for messages. */
export const STATUS_WORDS = CRM_STATUSES.map((status) => CRM_STATUS_LABELS[status]).join(', ');

/**
 * Validates `input` with a client input schema, so bounds and enumerations live in one place; the client's
 * problems become issues of the command schema (dotted contract field names). Returns null when invalid.
 */
export function delegate<S extends z.ZodType>(
  operation: OperationName,
  schema: S,
  input: unknown,
  ctx: z.RefinementCtx,
  explain: (field: string, message: string) => string = (_field, message) => message,
): z.output<S> | null {
  try {
    return parseInput(operation, schema, input);
  } catch (error) {
    if (!(error instanceof ServiceInputError)) throw error;
    for (const issue of error.issues) {
      ctx.addIssue({
        code: 'custom',
        path: issue.field === '' ? [] : issue.field.split('.'),
        message: explain(issue.field, issue.message),
      });
    }
    return null;
  }
}

/** Lines of text as text nodes, each within the text limit of both platforms. */
export function textLines(lines: readonly string[]): TextNode[] {
  const nodes: TextNode[] = [];
  let chunk = '';
  for (const line of lines) {
    const piece = line.length > TEXT_MAX ? `${line.slice(0, TEXT_MAX - 1)}…` : line;
    if (chunk !== '' && chunk.length + 1 + piece.length > TEXT_MAX) {
      nodes.push(text(chunk));
      chunk = '';
    }
    chunk = chunk === '' ? piece : `${chunk}\n${piece}`;
  }
  if (chunk !== '') nodes.push(text(chunk));
  return nodes;
}

/** Quotes a list name for a command people can copy (`"Spring Launch"`). */
export function quoted(name: string): string {
  return /^[^\s"'“”‘’«»]+$/.test(name) ? name : `"${name.replace(/"/g, "'")}"`;
}
