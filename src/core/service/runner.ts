/**
 * Runs one operation: validate the input, meter the call, send, decode the answer at the boundary, attach meta and
 * cost.
 */

import type { z } from 'zod';
import { mayHaveCharged, ServiceError } from './errors.js';
import { buildUrl } from './http.js';
import { parseInput } from './input-kit.js';
import { OPERATION_TRAITS, type OperationName } from './operations.js';
import { costOf, estimateCost, isFree } from './pricing.js';
import type { Transport } from './transport.js';
import type { CallOptions, Meter, ServiceResult } from './types.js';

/** What every resource module needs to call the service. */
export interface OperationContext {
  transport: Transport;
  baseUrl: string;
  mediaUrl: string;
  /**
   * Keeps the books of every call made here (an invocation's calls). Without one (the key's own client) only the
   * operations the pricing table charges nothing for can be called: a paid call nobody keeps the books of is refused.
   */
  meter?: Meter;
  /** Options under each call's own: an invocation's cancel signal, wait notices, person and deadline. */
  defaults?: CallOptions;
}

/** Where and what to send. */
export interface RequestParts {
  path: string;
  query?: URLSearchParams;
  body?: unknown;
}

/** The definition of one operation. */
export interface OperationDefinition<S extends z.ZodType, T> {
  operation: OperationName;
  input: S;
  request(input: z.output<S>): RequestParts;
  /** Turns the parsed JSON body into the normalized data; throwing means the body was not understood. */
  decode(body: unknown, input: z.output<S>): T;
  /** How many paid items the data holds (per-item pricing). */
  items?(data: T): number;
  /**
   * Credits the answer says the call used (songs' `credits_used`), or null when it says nothing: what it says is
   * what the call cost, the pricing table only standing in for it.
   */
  creditsUsed?(data: T): number | null | undefined;
}

/** A callable operation. */
export type Operation<S extends z.ZodType, T> = (
  input: z.input<S>,
  options?: CallOptions,
) => Promise<ServiceResult<T>>;

function badResponse(operation: OperationName, status: number, text: string, cause: unknown): ServiceError {
  return new ServiceError({
    code: 'BAD_RESPONSE',
    operation,
    status,
    rawBody: text,
    cause,
    message:
      'The service sent an answer Scout cannot read. Try again later; if it keeps happening, report it.',
  });
}

/** A reported credit count the ledger can hold (a whole number, rounded up), or null when it is not one. */
function usedCredits(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.ceil(value) : null;
}

/** A call's own options over the context's defaults; either's signal cancels it. */
function withDefaults(
  defaults: CallOptions | undefined,
  own: CallOptions | undefined,
): CallOptions | undefined {
  if (defaults === undefined) return own;
  if (own === undefined) return defaults;
  const merged: CallOptions = { ...defaults, ...own };
  if (defaults.signal !== undefined && own.signal !== undefined)
    merged.signal = AbortSignal.any([defaults.signal, own.signal]);
  if (defaults.waitSignal !== undefined && own.waitSignal !== undefined)
    merged.waitSignal = AbortSignal.any([defaults.waitSignal, own.waitSignal]);
  return merged;
}

/** The refusal of a paid operation called without a meter: a call no ledger would hold. */
function unmeteredPaidCall(operation: OperationName): ServiceError {
  return new ServiceError({
    code: 'UNMETERED_PAID_CALL',
    operation,
    sent: false,
    message: `${operation} costs credits, so it is called only through an invocation's metered operations; nothing was sent.`,
  });
}

/**
 * Makes one call of `operation` with its parsed `input` through the context: with the context's default options under
 * its own, and, when the context has a meter, an entry in it opened before `send` (which may refuse: nothing is then
 * sent) and closed with how the call ended; without one, a paid operation is refused before `send`. Every operation
 * of the client goes through here.
 */
export async function meteredCall<T>(
  context: OperationContext,
  operation: OperationName,
  input: unknown,
  options: CallOptions | undefined,
  send: (options: CallOptions | undefined) => Promise<ServiceResult<T>>,
): Promise<ServiceResult<T>> {
  const merged = withDefaults(context.defaults, options);
  const { meter } = context;
  if (meter === undefined) {
    if (!isFree(operation)) throw unmeteredPaidCall(operation);
    return send(merged);
  }
  const estimate = estimateCost(operation, typeof input === 'object' && input !== null ? input : {});
  const entry = await meter.open({ operation, estimate });
  let result: ServiceResult<T>;
  try {
    result = await send(merged);
  } catch (error) {
    throw await entry.failed(
      error,
      mayHaveCharged(error),
      error instanceof ServiceError ? error.share : undefined,
    );
  }
  await entry.answered(result.meta, result.share);
  return result;
}

/** Runs an operation once: nothing is sent, nor metered, when the input is invalid. */
export async function runOperation<S extends z.ZodType, T>(
  context: OperationContext,
  definition: OperationDefinition<S, T>,
  raw: unknown,
  options?: CallOptions,
): Promise<ServiceResult<T>> {
  const input = parseInput(definition.operation, definition.input, raw);
  return meteredCall(context, definition.operation, input, options, (merged) =>
    sendParsed(context, definition, input, merged),
  );
}

/**
 * Sends an input already parsed by the definition's schema, decodes the answer and attaches meta and cost. It
 * neither meters nor applies defaults: callers go through meteredCall.
 */
export async function sendParsed<S extends z.ZodType, T>(
  context: OperationContext,
  definition: OperationDefinition<S, T>,
  input: z.output<S>,
  options?: CallOptions,
): Promise<ServiceResult<T>> {
  const { operation } = definition;
  const parts = definition.request(input);
  const base = OPERATION_TRAITS[operation].host === 'media' ? context.mediaUrl : context.baseUrl;
  const reply = await context.transport.send(
    { operation, url: buildUrl(base, parts.path, parts.query), body: parts.body },
    options,
  );
  let data: T;
  try {
    data = definition.decode(JSON.parse(reply.text), input);
  } catch (cause) {
    // A decoder may itself recognize a failure reported inside a success answer.
    if (cause instanceof ServiceError) throw cause;
    throw badResponse(operation, reply.status, reply.text, cause);
  }
  const items = definition.items ? definition.items(data) : 0;
  const reported = usedCredits(definition.creditsUsed?.(data));
  return {
    data,
    meta: {
      operation,
      status: reply.status,
      attempts: reply.attempts,
      creditsRemaining: reply.accounting.creditsRemaining,
      rateLimitRemaining: reply.accounting.rateLimitRemaining,
      rateLimitTotal: reply.accounting.rateLimitTotal,
      cost: reported ?? costOf(operation, items),
    },
  };
}

/** Binds a definition to a context, giving the callable operation. */
export function bindOperation<S extends z.ZodType, T>(
  context: OperationContext,
  definition: OperationDefinition<S, T>,
): Operation<S, T> {
  return (input, options) => runOperation(context, definition, input, options);
}
