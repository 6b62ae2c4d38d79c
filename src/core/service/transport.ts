/**
 * The HTTP transport: one undici request per attempt, run through the key's rate limiter, with a time limit per
 * operation, error-shape decoding and retries.
 */

import type { Dispatcher } from 'undici';
import { CancelledError } from '../errors.js';
import { errorFromAnswer, ServiceError, SharedWindowUnavailableError } from './errors.js';
import { type AccountingHeaders, type RawHeaders, readAccounting, readRetryAfter } from './http.js';
import { OPERATION_TRAITS, type OperationName } from './operations.js';
import { PRICING } from './pricing.js';
import { isLimiterStopped, type KeyRateLimiter, type LimiterTicket } from './rate-limiter.js';
import { backoffDelay, isRetryable, type RetrySettings, sleep } from './retry.js';
import type { CallOptions, Logger, Priority } from './types.js';

/** One request of an operation. */
export interface TransportRequest {
  operation: OperationName;
  url: URL;
  /** JSON body, sent with `Content-Type: application/json`. */
  body?: unknown;
}

/** A successful (2xx) answer. */
export interface TransportReply {
  status: number;
  text: string;
  accounting: AccountingHeaders;
  attempts: number;
}

/** Sends requests to the service. */
export interface Transport {
  send(req: TransportRequest, options?: CallOptions): Promise<TransportReply>;
}

/** What the transport reports: each HTTP request sent, by operation, with its status and duration. */
export interface TransportMetrics {
  /** `status`: the HTTP status code, or `timeout`, `network_error` or `aborted` when no answer came. */
  request(operation: OperationName, status: string, seconds: number): void;
}

/** Dependencies and settings of the transport. */
export interface TransportOptions {
  apiKey: string;
  limiter: KeyRateLimiter;
  timeouts: Readonly<Record<OperationName, number>>;
  retry: RetrySettings;
  dispatcher?: Dispatcher;
  logger?: Logger;
  /** Source of randomness for backoff jitter. */
  random?: () => number;
  metrics?: TransportMetrics;
}

type Attempt =
  | { ok: true; status: number; text: string; headers: RawHeaders }
  | { ok: false; error: ServiceError; sent: boolean };

/** Connection errors raised before any byte of the request left: the service cannot have processed it. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** undici, loaded with the first request: a process that never calls the service (or not yet) starts faster. */
let undici: Promise<typeof import('undici')> | null = null;
const loadUndici = () => {
  undici ??= import('undici');
  return undici;
};

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A person waiting for their turn longer than this is told, and may cancel. */
export const WAIT_NOTICE_MS = 30_000;

function errorCode(error: unknown): string | null {
  for (let current = error, depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return null;
}

const aborted = (operation: OperationName, cause: unknown, sent: boolean) =>
  new ServiceError({ code: 'ABORTED', operation, message: 'The service call was cancelled.', cause, sent });

const stopped = (operation: OperationName, cause?: unknown) =>
  new ServiceError({
    code: 'CLIENT_STOPPED',
    operation,
    message: 'Scout is shutting down, so the service call was not sent. Try again once it is back.',
    cause,
  });

/** Sends one attempt through undici; `ticket` gives the window slot back when nothing was sent. */
async function attemptOnce(
  options: TransportOptions,
  req: TransportRequest,
  ticket: LimiterTicket,
  signal?: AbortSignal,
): Promise<Attempt> {
  const { apiKey, timeouts, dispatcher, metrics } = options;
  const { operation } = req;
  const { request } = await loadUndici();
  if (signal?.aborted) {
    ticket.notSent();
    return { ok: false, error: aborted(operation, signal.reason, false), sent: false };
  }
  const timeoutMs = timeouts[operation];
  const controller = new AbortController();
  const timeoutReason = new CancelledError('time limit reached');
  const timer = setTimeout(() => controller.abort(timeoutReason), timeoutMs);
  timer.unref();
  const forward = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forward, { once: true });
  const headers: Record<string, string> = { 'x-ty-api-key': apiKey, accept: 'application/json' };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const sentAt = performance.now();
  const count = (status: string) => metrics?.request(operation, status, (performance.now() - sentAt) / 1000);
  try {
    const res = await request(req.url, {
      method: OPERATION_TRAITS[operation].method,
      headers,
      ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
      signal: controller.signal,
      // undici's own 300 s defaults would cut a long remix short: the operation's limit governs.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(dispatcher === undefined ? {} : { dispatcher }),
    });
    const text = await res.body.text();
    count(String(res.statusCode));
    return { ok: true, status: res.statusCode, text, headers: res.headers };
  } catch (cause) {
    const code = errorCode(cause);
    if (controller.signal.reason === timeoutReason || (code !== null && TIMEOUT_CODES.has(code))) {
      const seconds = Math.round(timeoutMs / 100) / 10;
      const error = new ServiceError({
        code: 'TIMEOUT',
        operation,
        message: `The service did not answer within ${seconds} s. Try again later.`,
        cause,
      });
      count('timeout');
      return { ok: false, error, sent: true };
    }
    if (signal?.aborted) {
      count('aborted');
      return { ok: false, error: aborted(operation, cause, true), sent: true };
    }
    const sent = code === null || !NOT_SENT_CODES.has(code);
    count(sent ? 'network_error' : 'not_sent');
    if (!sent) ticket.notSent();
    const error = new ServiceError({
      code: 'NETWORK_ERROR',
      operation,
      message: `Could not reach the service (${code ?? 'connection failed'}). Check the service URL and the network, then try again.`,
      cause,
      sent,
    });
    return { ok: false, error, sent };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/**
 * Why a wait is given up unsent: a hold longer than a person should wait (`maxHoldMs`; null for background work),
 * or a start that could no longer come before the deadline; null when the wait goes on.
 */
function tooLongAWait(
  operation: OperationName,
  maxHoldMs: number | null,
  held: number,
  deadline: Date | undefined,
): ServiceError | null {
  if (maxHoldMs !== null && held > maxHoldMs) {
    const retryAfter = Math.ceil(held / 1000);
    return new ServiceError({
      code: 'RATE_LIMITED',
      operation,
      retryAfter,
      sent: false,
      message: `The service's rate limit was reached. Try again in ${retryAfter} s.`,
    });
  }
  if (deadline === undefined || Date.now() + held < deadline.getTime()) return null;
  return new ServiceError({
    code: 'TOO_LATE',
    operation,
    sent: false,
    message:
      'Scout stopped waiting for the service: its answer could no longer reach you here. Nothing more was sent; run the command again.',
  });
}

/**
 * Waits for the limiter to start the attempt. A person is told (once) when the wait will pass WAIT_NOTICE_MS, and
 * the wait is given up, with nothing sent, when the person cancels, when a hold grows past what a person should
 * wait (they are told when to try again instead) or when the call could no longer start before its deadline.
 * The call takes its person's turns in the limiter's queue, which tells `onQueue` its place while it waits.
 */
function waitForStart(
  { limiter, retry }: TransportOptions,
  req: TransportRequest,
  priority: Priority,
  callOptions: CallOptions,
  run: (ticket: LimiterTicket) => Promise<Attempt>,
): Promise<Attempt> {
  return new Promise<Attempt>((resolve, reject) => {
    const { operation } = req;
    const { signal, waitSignal, onWait, onWaitOver, deadline, person, onQueue, onQueueOver } = callOptions;
    const queuedAt = Date.now();
    let started = false;
    let settled = false;
    let told = false;
    const timers: NodeJS.Timeout[] = [];
    // Takes the call out of the limiter's queue when the wait is given up, so its turn goes to the next call.
    const leave = new AbortController();
    let stopListening = () => {};
    const onAbort = () => giveUp(aborted(operation, signal?.reason ?? waitSignal?.reason, false));
    const cleanUp = () => {
      for (const timer of timers) clearTimeout(timer);
      stopListening();
      signal?.removeEventListener('abort', onAbort);
      waitSignal?.removeEventListener('abort', onAbort);
      if (told) onWaitOver?.();
    };
    const giveUp = (error: ServiceError) => {
      if (started || settled) return;
      settled = true;
      cleanUp();
      leave.abort(error);
      reject(error);
    };
    const check = () => {
      if (started || settled) return;
      const held = limiter.heldFor();
      const reason = tooLongAWait(
        operation,
        priority === 'user' ? retry.maxRetryAfterMs : null,
        held,
        deadline,
      );
      if (reason !== null) return giveUp(reason);
      if (
        !told &&
        onWait !== undefined &&
        (held > WAIT_NOTICE_MS || Date.now() - queuedAt >= WAIT_NOTICE_MS)
      ) {
        told = true;
        onWait(Math.max(1, Math.ceil(held / 1000)));
      }
    };
    const after = (ms: number) => {
      const timer = setTimeout(check, Math.max(0, ms));
      timer.unref();
      timers.push(timer);
    };
    const enqueue = () => {
      limiter
        .schedule(
          priority,
          (ticket) => {
            // The wait was given up as the turn came: this turn sends nothing and gives its token back.
            if (settled) {
              ticket.notSent();
              return Promise.resolve(null);
            }
            started = true;
            cleanUp();
            callOptions.onStart?.();
            return run(ticket);
          },
          {
            signal: leave.signal,
            ...(person === undefined ? {} : { person }),
            ...(onQueue === undefined ? {} : { onQueue }),
            ...(onQueueOver === undefined ? {} : { onQueueOver }),
          },
        )
        .then(
          (outcome) => {
            if (outcome === null) return;
            settled = true;
            resolve(outcome);
          },
          (error: unknown) => {
            if (settled && !started) return;
            settled = true;
            cleanUp();
            reject(error);
          },
        );
    };
    if (priority === 'user') {
      stopListening = limiter.onHold(check);
      after(WAIT_NOTICE_MS);
      if (deadline !== undefined) after(deadline.getTime() - Date.now());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    waitSignal?.addEventListener('abort', onAbort, { once: true });
    check();
    if (signal?.aborted || waitSignal?.aborted) onAbort();
    if (!settled) enqueue();
  });
}

/** Creates the transport of one API key. */
export function createTransport(options: TransportOptions): Transport {
  const { limiter, retry, logger } = options;
  const random = options.random ?? Math.random;

  const send = async (req: TransportRequest, callOptions: CallOptions = {}): Promise<TransportReply> => {
    const { operation } = req;
    const { signal } = callOptions;
    const priority = callOptions.priority ?? 'user';
    // A paid request that may have reached the service is never sent again: the service may have charged for it
    // already, and a second send would charge again. Only failures that prove nothing was processed repeat it.
    const repeatable = OPERATION_TRAITS[operation].repeatable && PRICING[operation].kind === 'free';
    for (let attempt = 1; ; attempt++) {
      // Every earlier attempt of a paid call provably did nothing (see `repeatable`), so nothing of it was sent.
      if (signal?.aborted) throw aborted(operation, signal.reason, attempt > 1 && repeatable);
      let outcome: Attempt;
      try {
        outcome = await waitForStart(options, req, priority, callOptions, (ticket) =>
          attemptOnce(options, req, ticket, signal),
        );
      } catch (cause) {
        if (isLimiterStopped(cause)) throw stopped(operation, cause);
        if (cause instanceof SharedWindowUnavailableError) {
          throw new ServiceError({
            code: 'LIMITER_UNAVAILABLE',
            operation,
            message:
              'Scout cannot reach Redis, through which its replicas share the service’s rate limit, so nothing was sent. Try again in a minute.',
            cause,
            sent: false,
          });
        }
        throw cause;
      }
      let failure: ServiceError;
      let sent = true;
      if (outcome.ok) {
        const accounting = readAccounting(outcome.headers);
        limiter.observe({ total: accounting.rateLimitTotal, remaining: accounting.rateLimitRemaining });
        if (outcome.status >= 200 && outcome.status < 300) {
          logger?.debug({ operation, status: outcome.status, attempt }, 'service call succeeded');
          return { status: outcome.status, text: outcome.text, accounting, attempts: attempt };
        }
        failure = errorFromAnswer({
          operation,
          status: outcome.status,
          body: outcome.text,
          retryAfterHeader: readRetryAfter(outcome.headers),
        });
      } else {
        failure = outcome.error;
        sent = outcome.sent;
      }
      if (failure.code === 'ABORTED') throw failure;
      const retryAfterMs = failure.retryAfter === null ? null : failure.retryAfter * 1000;
      const delayMs = retryAfterMs ?? backoffDelay(attempt, retry, random);
      // The service is saturated for this key: every call of the key waits, not just this one.
      if (failure.code === 'RATE_LIMITED') limiter.hold(delayMs);
      const again =
        attempt < retry.maxAttempts &&
        isRetryable({ code: failure.code, sent }, repeatable) &&
        !(failure.code === 'RATE_LIMITED' && delayMs > retry.maxRetryAfterMs);
      const context = { operation, status: failure.status, code: failure.code, attempt };
      if (!again) {
        logger?.warn(context, 'service call failed');
        throw failure;
      }
      logger?.warn({ ...context, delayMs }, 'service call failed, retrying');
      // A 429 waits in the limiter's hold, where the call keeps its priority; other failures back off here.
      if (failure.code !== 'RATE_LIMITED') {
        try {
          await sleep(delayMs, signal);
        } catch (cause) {
          throw aborted(operation, cause, repeatable);
        }
      }
    }
  };

  return { send };
}
