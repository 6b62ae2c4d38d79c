/** Shared pieces of the CRM families: the list and status options, statuses in words, client-schema reuse. */
import type { z } from 'zod';
import type { ParamSpec } from '../../core/command/params.js';
import { readsAsKey } from '../../core/command/tokenize.js';
import { CRM_STATUSES, type CrmStatus } from '../../core/service/enums.js';
import { type OperationName, parseInput, ServiceInputError } from '../../core/service/index.js';
import { MISSING } from '../../core/ui/index.js';
import { CRM_STATUS_LABELS, normalizeCrmStatus } from './crm-cards.js';

/** Stands in for an id that is only known once the list (or contact) reference is resolved. */
export const PENDING_ID = 'pending';

/**
 * The `<list>` option: a list name (any case) or a list id. A name of several words needs no quotes where nothing
 * but `key:value` options follows it.
 */
export const LIST_PARAM: ParamSpec = {
  kind: 'text',
  positional: true,
  required: true,
  trailing: true,
  description: 'A list, by its name (any case) or id.',
  example: '"Spring Launch"',
  completedFrom: 'crm-lists',
};

/** A CRM status as people type it in examples and hints (`to_outreach`): the contract's value, lower case. */
export const typedStatus = (status: CrmStatus): string => status.toLowerCase();

/** The status of examples and hints. */
export const STATUS_EXAMPLE = typedStatus('NEGOTIATING');

/** A status in words, as the `status:` option takes and names it. */
const words = (status: CrmStatus) => CRM_STATUS_LABELS[status];

/**
 * The `status:` option: one of the six CRM statuses in words ("To outreach", "Negotiating"), in any case, with or
 * without underscores (`to_outreach`). Help, errors and suggestions name them in words; the client sends the
 * contract's value.
 */
export const STATUS_PARAM: ParamSpec = {
  kind: 'choice',
  values: CRM_STATUSES.map(words),
  // Other words people use for the statuses.
  synonyms: {
    'not contacted': words('TO_OUTREACH'),
    'not contacted yet': words('TO_OUTREACH'),
    contacted: words('OUTREACHED'),
    'reached out': words('OUTREACHED'),
    emailed: words('OUTREACHED'),
    negotiation: words('NEGOTIATING'),
    negotiate: words('NEGOTIATING'),
    'in negotiation': words('NEGOTIATING'),
    'working with': words('WORKING'),
    'in progress': words('WORKING'),
    active: words('WORKING'),
    finished: words('DONE'),
    completed: words('DONE'),
    complete: words('DONE'),
    canceled: words('CANCELLED'),
    dropped: words('CANCELLED'),
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

/**
 * Quotes a list name for a command people can copy (`"Spring Launch"`): a name with spaces or quotes, or one that
 * would read as an option (`"status:negotiating"`).
 */
export function quoted(name: string): string {
  return /^[^\s"'“”‘’«»]+$/.test(name) && !readsAsKey(name) ? name : `"${name.replace(/"/g, "'")}"`;
}

/**
 * What adding creators to a list and taking them off changes, from any family (a results page's Add to list, `list
 * add`, `list remove`): one subject, so undoing then redoing within the repeat window runs again.
 */
export const LIST_SUBJECT = 'list';
