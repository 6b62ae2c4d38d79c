/**
 * The root of every error Scout raises: each carries a stable SCREAMING_SNAKE `code`, listed once below with what
 * it means, so logs, metrics and callers classify errors by code instead of by message.
 */

/**
 * Every code a ScoutError can carry, with its meaning. Codes are stable: logs and alerts match on them, so one is
 * added for a new failure and never renamed. Each belongs to one error class (a subclass may share its parent's).
 */
export const SCOUT_ERROR_CODES = {
  // Start and tools.
  INVALID_CONFIG:
    'ConfigError: the environment is not a valid configuration; the message names each variable.',
  SLACK_AUTH_FAILED: 'SlackStartError: Slack did not confirm the bot token at start, so Scout serves nobody.',
  INVALID_ARGUMENTS: 'UsageError: a command-line tool (db:copy) was given arguments it cannot use.',
  INVALID_SETUP:
    'SetupError: a part is set up in a way it cannot run (a setting it needs is missing or contradicts another).',
  PORT_UNAVAILABLE: 'ListenError: a server of Scout cannot listen on its port (taken, or not allowed).',
  DATABASE_UNUSABLE:
    'DatabaseError: the database cannot be opened or brought up to date (a newer schema, not a database).',
  COPY_FAILED: 'CopyError: db:copy cannot copy the database as it is; the target is left as it was.',

  // The command line and its checks, answered to the author only.
  INVALID_SYNTAX: 'TokenizeError: the command text cannot be split into words (an unclosed quote, too long).',
  INVALID_OPTION:
    'ParamError: one option has a value it does not accept (not a number, out of range, unknown).',
  INVALID_COMMAND:
    'CommandInputError: the command or its options are wrong; the usage shows how to write it.',
  NOT_ALLOWED: 'PermissionError: the person may not run this command.',
  DAILY_CAP_REACHED: 'CreditCapError: running the command would exceed the daily credit cap.',
  NOT_CONNECTED: 'NotConnectedError: no readable service key is connected for the tenant.',
  UNCONFIRMED_CHARGE: 'UnconfirmedChargeError: a paid call may have been charged, but its answer was lost.',
  STORAGE_FULL: 'StorageFullError: Scout’s database cannot grow (the disk is full).',

  // The chat platforms.
  PLATFORM_ERROR:
    'PlatformError: Slack, Discord or the terminal did not take a post, or answered in a way Scout cannot use.',
  NOT_INSTALLED: 'NotInstalledError: a Slack workspace has no usable installation of Scout (many-team mode).',

  // Scout's own invariants and the end of work.
  INTERNAL_ERROR:
    'InternalError: a state Scout’s code should never reach (a broken invariant, a call out of order, ' +
    'declarations that contradict each other); a bug to fix, not a person’s mistake.',
  CANCELLED:
    'CancelledError: why work was called off on purpose (stopping, the person’s Stop, a time limit); the cause ' +
    'of the error the work ends with.',

  // Secrets at rest.
  SEAL_FAILED: 'SealError: a sealed secret cannot be opened (altered, another tenant’s, or another key’s).',

  // The service client (ServiceError; ServiceInputError is INVALID_INPUT).
  INVALID_INPUT: 'ServiceInputError: the input breaks the service contract; nothing was sent.',
  INVALID_API_KEY: 'ServiceError: the service answered 401, the key is wrong or revoked.',
  PAYMENT_REQUIRED: 'ServiceError: the service answered 402, out of credits or without a subscription.',
  FORBIDDEN: 'ServiceError: the service answered 403, the key’s plan does not allow the operation.',
  NOT_FOUND: 'ServiceError: the service answered 404, the list, contact or creator does not exist.',
  BAD_REQUEST: 'ServiceError: the service refused the request with another 4xx.',
  RATE_LIMITED: 'ServiceError: the rate limit was reached (a 429, or a wait longer than Scout allows).',
  SERVICE_UNAVAILABLE: 'ServiceError: the service answered 5xx; it may have done the work.',
  TIMEOUT: 'ServiceError: no answer within the operation’s time limit; it may have done the work.',
  NETWORK_ERROR: 'ServiceError: the connection failed or was cut; `sent` says whether the request left.',
  BAD_RESPONSE: 'ServiceError: an answer Scout cannot read (an unexpected status or body).',
  ABORTED: 'ServiceError: the call was cancelled (the person pressed Cancel, or the work was stopped).',
  CLIENT_STOPPED: 'ServiceError: the client is shutting down; nothing was sent.',
  TOO_LATE: 'ServiceError: the answer could no longer reach the person in time; nothing was sent.',
  LIMITER_UNAVAILABLE: 'ServiceError: the shared rate window in Redis cannot be reached; nothing was sent.',
  UNMETERED_PAID_CALL:
    'ServiceError: a paid operation was called without a meter (the key’s own client); nothing was sent.',
  SHARED_WINDOW_UNREACHABLE:
    'SharedWindowUnavailableError: Redis did not answer the rate window; the client reports LIMITER_UNAVAILABLE.',

  // The embedded sandbox of the service.
  SANDBOX_HTTP_ERROR:
    'SandboxHttpError: the sandbox answers a request with an error status in the service’s shape.',
} as const satisfies Readonly<Record<string, string>>;

/** A stable error code: a key of SCOUT_ERROR_CODES. */
export type ScoutErrorCode = keyof typeof SCOUT_ERROR_CODES;

/** The base of every error class in Scout; each subclass declares its `code` (and its `name`, for the log). */
export abstract class ScoutError extends Error {
  /** Stable SCREAMING_SNAKE code, listed in SCOUT_ERROR_CODES. */
  abstract readonly code: ScoutErrorCode;
}

/** Whether `error` is one of Scout's own errors, and so carries a listed code. */
export function isScoutError(error: unknown): error is ScoutError {
  return error instanceof ScoutError;
}

/** A part of Scout is set up in a way it cannot run: a setting it needs is missing or contradicts another. */
export class SetupError extends ScoutError {
  override readonly name = 'SetupError';
  readonly code = 'INVALID_SETUP';
}

/** A server of Scout cannot listen on its port; the cause is the system's error (EADDRINUSE, EACCES). */
export class ListenError extends ScoutError {
  override readonly name = 'ListenError';
  readonly code = 'PORT_UNAVAILABLE';
}

/** A chat platform did not take a post, or answered in a way Scout cannot use. */
export class PlatformError extends ScoutError {
  override readonly name = 'PlatformError';
  readonly code = 'PLATFORM_ERROR';
}

/** A state Scout's own code should never reach: a bug to fix, never a person's mistake. */
export class InternalError extends ScoutError {
  override readonly name = 'InternalError';
  readonly code = 'INTERNAL_ERROR';
}

/** The reason work was called off on purpose, given to AbortController.abort: the cause of what the work ends with. */
export class CancelledError extends ScoutError {
  override readonly name = 'CancelledError';
  readonly code = 'CANCELLED';
}
