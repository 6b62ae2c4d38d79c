/** The error family of the service client: one class, stable codes, messages that say what to do. */

import { ScoutError } from '../errors.js';
import { shortText } from '../ui/format.js';
import type { OperationName } from './operations.js';
import type { RequestShare } from './types.js';

/** Stable codes of ServiceError. */
export const SERVICE_ERROR_CODES = [
  'INVALID_INPUT',
  'INVALID_API_KEY',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_REQUEST',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'TIMEOUT',
  'NETWORK_ERROR',
  'BAD_RESPONSE',
  'ABORTED',
  'CLIENT_STOPPED',
  'TOO_LATE',
  'LIMITER_UNAVAILABLE',
  'UNMETERED_PAID_CALL',
] as const;

/** A stable error code. */
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

/** Longest raw body kept on an error, so logs stay small. */
export const RAW_BODY_LIMIT = 2_000;

/** Fields of a ServiceError. */
export interface ServiceErrorInit {
  code: ServiceErrorCode;
  operation: OperationName;
  message: string;
  status?: number | null;
  retryAfter?: number | null;
  rawBody?: string;
  /** The service's own explanation, when its body carried one. */
  serviceMessage?: string | null;
  /** False when the request provably never reached the service; true (the default) when it may have. */
  sent?: boolean;
  /** The caller's share of the failed request, when it was sent for several callers. */
  share?: RequestShare;
  cause?: unknown;
}

/** Any failure of a service call: bad input, an error answer, a timeout, a network failure or an unreadable body. */
export class ServiceError extends ScoutError {
  override readonly name: string = 'ServiceError';
  /** Stable SCREAMING_SNAKE code. */
  readonly code: ServiceErrorCode;
  /** HTTP status of the answer, or null when there was none. */
  readonly status: number | null;
  /** The operation that failed. */
  readonly operation: OperationName;
  /** Seconds to wait before trying again, when the service said so. */
  readonly retryAfter: number | null;
  /** The service's own explanation, when its body carried one. */
  readonly serviceMessage: string | null;
  /** The start of the raw body, for the log. */
  readonly rawBody?: string;
  /** False when the request provably never reached the service. */
  readonly sent: boolean;
  /** The caller's share of the failed request, when it was sent for several callers. */
  readonly share?: RequestShare;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.sent = init.sent ?? init.code !== 'INVALID_INPUT';
    this.operation = init.operation;
    this.status = init.status ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.serviceMessage = init.serviceMessage ?? null;
    if (init.rawBody !== undefined) this.rawBody = truncate(init.rawBody);
    if (init.share !== undefined) this.share = init.share;
  }
}

/** Failures that prove the service did not process the request: an error answer, or nothing sent. */
const NOT_PROCESSED: ReadonlySet<ServiceErrorCode> = new Set([
  'INVALID_INPUT',
  'INVALID_API_KEY',
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'BAD_REQUEST',
  'RATE_LIMITED',
  'CLIENT_STOPPED',
  'TOO_LATE',
]);

/**
 * Whether a failed call may still have been processed, and so charged: a lost connection or cancellation after
 * sending, a time-out, a 5xx (a gateway's 504 comes after the service may have done the work) or a 2xx whose
 * body could not be read. Anything that is not a ServiceError counts as possibly charged.
 */
export function mayHaveCharged(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return true;
  if (NOT_PROCESSED.has(error.code)) return false;
  return error.sent;
}

/** One problem of an input: the field (contract name, dotted path) and what is allowed. */
export interface InputIssue {
  field: string;
  message: string;
  /** For enumerations: every allowed value. */
  allowed?: readonly string[];
}

/** Input rejected before anything was sent. */
export class ServiceInputError extends ServiceError {
  override readonly name: string = 'ServiceInputError';
  /** Every problem found, one per field. */
  readonly issues: readonly InputIssue[];

  constructor(operation: OperationName, issues: readonly InputIssue[]) {
    super({ code: 'INVALID_INPUT', operation, message: summarizeIssues(issues) });
    this.issues = issues;
  }
}

function summarizeIssues(issues: readonly InputIssue[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => (issue.field ? `${issue.field} ${issue.message}` : issue.message));
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `Invalid input: ${shown.join('; ')}${more}.`;
}

/** Cuts a body to RAW_BODY_LIMIT characters. */
export function truncate(text: string): string {
  return text.length > RAW_BODY_LIMIT ? `${text.slice(0, RAW_BODY_LIMIT)}…` : text;
}

/** What an error body said, whatever its shape. */
export interface DecodedErrorBody {
  message: string | null;
  retryAfter: number | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

function describeDetail(detail: unknown): string | null {
  if (typeof detail === 'string') return nonEmpty(detail);
  // FastAPI validation errors: [{ loc: ['body', 'userIds'], msg: 'field required', type }].
  if (Array.isArray(detail)) {
    const parts = detail.map((item) => {
      if (!isRecord(item)) return nonEmpty(item);
      const msg = nonEmpty(item.msg) ?? nonEmpty(item.message);
      const loc = Array.isArray(item.loc)
        ? item.loc.filter((part) => part !== 'body' && part !== 'query' && part !== 'path').join('.')
        : '';
      return msg ? (loc ? `${loc}: ${msg}` : msg) : null;
    });
    const text = parts.filter((part): part is string => part !== null).join('; ');
    return text === '' ? null : text;
  }
  if (isRecord(detail)) return nonEmpty(detail.message) ?? nonEmpty(detail.msg);
  return null;
}

function toSeconds(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
}

/**
 * Reads the three error shapes of the contract: A `{code, message}`, B `{detail}` (a string or a FastAPI array),
 * C `{error, retryAfter}`; anything else yields nulls.
 */
export function decodeErrorBody(text: string): DecodedErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: null, retryAfter: null };
  }
  if (!isRecord(body)) return { message: nonEmpty(body), retryAfter: null };
  const error = body.error;
  const message =
    describeDetail(body.detail) ??
    nonEmpty(body.message) ??
    nonEmpty(error) ??
    (isRecord(error) ? (nonEmpty(error.message) ?? nonEmpty(error.detail)) : null);
  return { message, retryAfter: toSeconds(body.retryAfter ?? body.retry_after) };
}

/** Context of an error answer. */
export interface ErrorAnswer {
  operation: OperationName;
  status: number;
  body: string;
  /** Seconds from the Retry-After header, when present. */
  retryAfterHeader: number | null;
}

/** The most of the service's own message a person is shown, in characters. */
export const SHOWN_MESSAGE_LIMIT = 200;

/** Builds the ServiceError for an HTTP error answer. */
export function errorFromAnswer(answer: ErrorAnswer): ServiceError {
  const { operation, status, body } = answer;
  const decoded = decodeErrorBody(body);
  const base = { operation, status, rawBody: body, serviceMessage: decoded.message };
  // What the service said reaches people after Scout's own explanation: one line, without control characters, cut
  // short, since the body is the service's (or a proxy's) to fill. Renderers escape it as any plain text.
  const said = shortText(decoded.message, SHOWN_MESSAGE_LIMIT);
  const because = said ? ` The service said: “${said}”` : '';
  if (status === 401) {
    return new ServiceError({
      ...base,
      code: 'INVALID_API_KEY',
      message: `The service rejected the API key: it is wrong or revoked. Ask an admin to connect a valid one (/scout connect), or to set SCOUT_API_KEY where one key serves every team.${because}`,
    });
  }
  if (status === 402) {
    return new ServiceError({
      ...base,
      code: 'PAYMENT_REQUIRED',
      message: `The service needs payment: the key is out of credits or has no active subscription. Top up credits or renew the subscription, then try again.${because}`,
    });
  }
  if (status === 403) {
    return new ServiceError({
      ...base,
      code: 'FORBIDDEN',
      message: `The service does not allow this operation for this key. Check the key's plan and team.${because}`,
    });
  }
  if (status === 404) {
    return new ServiceError({
      ...base,
      code: 'NOT_FOUND',
      message: `Not found: ${said ?? 'the list, contact or creator does not exist'}. Check the id and try again.`,
    });
  }
  if (status === 429) {
    const retryAfter = answer.retryAfterHeader ?? decoded.retryAfter;
    const wait = retryAfter === null ? 'in a minute' : `in ${Math.ceil(retryAfter)} s`;
    return new ServiceError({
      ...base,
      code: 'RATE_LIMITED',
      retryAfter,
      message: `The service's rate limit was reached. Try again ${wait}.`,
    });
  }
  if (status >= 500) {
    return new ServiceError({
      ...base,
      code: 'SERVICE_UNAVAILABLE',
      message: `The service is unavailable (HTTP ${status}). Try again in a few minutes.${because}`,
    });
  }
  if (status >= 400) {
    return new ServiceError({
      ...base,
      code: 'BAD_REQUEST',
      message: `The service rejected the request: ${said ?? `HTTP ${status}`}.`,
    });
  }
  return new ServiceError({
    ...base,
    code: 'BAD_RESPONSE',
    message: `The service answered with an unexpected HTTP ${status}. Try again later.`,
  });
}

/** Redis could not be asked for a slot (unreachable, or silent): nothing was sent to the service. */
export class SharedWindowUnavailableError extends ScoutError {
  override readonly name = 'SharedWindowUnavailableError';
  readonly code = 'SHARED_WINDOW_UNREACHABLE';
  constructor(cause: unknown) {
    super('The shared rate window in Redis could not be reached.', { cause });
  }
}
