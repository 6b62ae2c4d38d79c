/** The service client: one object with a group per resource, sharing a transport and the key's rate limiter. */

import type { Dispatcher } from 'undici';
import { type AgentApi, createAgentApi } from './agent.js';
import type { CreatorGetResult } from './creators.js';
import { type CreatorsApi, createCreatorsApi, createProfileRequests } from './creators.js';
import { type CrmApi, createCrmApi } from './crm.js';
import { createMediaApi, type MediaApi } from './media.js';
import { OPERATION_TRAITS, OPERATIONS, type OperationName } from './operations.js';
import type { FreeOperation } from './pricing.js';
import type { ProfileBatcher, ProfileBatchSettings } from './profile-batch.js';
import { createRateLimiterRegistry, type LimiterMetrics, type RateLimiterRegistry } from './rate-limiter.js';
import { DEFAULT_RETRY } from './retry.js';
import type { OperationContext } from './runner.js';
import { createSongsApi, type SongsApi } from './songs.js';
import { createTransport, type TransportMetrics } from './transport.js';
import type { CallOptions, Logger, Meter } from './types.js';
import { createVideosApi, type VideosApi } from './videos.js';
import { createViralApi, type ViralApi } from './viral.js';

/** Options of createServiceClient. */
export interface ServiceClientOptions {
  apiKey: string;
  baseUrl: string;
  mediaUrl: string;
  /** undici dispatcher; undici's global dispatcher by default. */
  dispatcher?: Dispatcher;
  /** Limiters shared per API key across clients; a new registry (owned by this client) by default. */
  limiters?: RateLimiterRegistry;
  /**
   * Allowance per sliding window (60 per 60 000 ms by default), requests in flight at once (as many as the
   * allowance when omitted) and how often a waiting call hears its place (QUEUE_REPORT_MS by default). Applies when
   * the key's limiter is created.
   */
  rateLimit?: { perWindow?: number; windowMs?: number; maxConcurrent?: number; queueReportMs?: number };
  /** Time limit of one attempt per operation, in milliseconds. */
  timeouts?: Partial<Record<OperationName, number>>;
  /** Jittered exponential backoff. */
  retry?: { maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number; maxRetryAfterMs?: number };
  /** Never receives the API key. */
  logger?: Logger;
  /** Where requests and rate-limiter waits are counted (a registry this client creates reports there too). */
  metrics?: TransportMetrics & LimiterMetrics;
  /** How profile calls made at the same moment are gathered into one request (profile-batch.ts). */
  profileBatch?: ProfileBatchSettings;
}

/** The operations of the service, one group per resource. */
export interface ServiceApi {
  creators: CreatorsApi;
  crm: CrmApi;
  viral: ViralApi;
  songs: SongsApi;
  agent: AgentApi;
  videos: VideosApi;
  media: MediaApi;
}

/** The operations of group `G` named (`G.method`) as free by the pricing table. */
type FreeMethods<G extends keyof ServiceApi> = {
  [M in keyof ServiceApi[G] as `${G}.${M & string}` extends FreeOperation ? M : never]: ServiceApi[G][M];
};

/** The operations the pricing table charges nothing for, by group (a group with none is left out). */
export type FreeServiceApi = {
  [G in keyof ServiceApi as keyof FreeMethods<G> extends never ? never : G]: FreeMethods<G>;
};

/**
 * The typed client of one API key: its free operations unmetered, and every operation bound to an invocation's meter.
 * A paid operation reached unmetered all the same (a cast) is refused with UNMETERED_PAID_CALL before it is sent.
 */
export interface ServiceClient extends FreeServiceApi {
  /**
   * The operations as one invocation calls them: every call, paid or free, goes through `meter` (see Meter), with
   * `defaults` under its own options. They share this client's transport, rate limiter and profile requests.
   */
  metered(meter: Meter, defaults?: CallOptions): ServiceApi;
  /** Stops the rate limiter registry when this client created it; a shared registry is left to its owner. */
  stop(): Promise<void>;
}

/** The operations over `context`, profiles by id joining `profiles`. */
function createApi(context: OperationContext, profiles: ProfileBatcher<CreatorGetResult>): ServiceApi {
  return {
    creators: createCreatorsApi(context, profiles),
    crm: createCrmApi(context),
    viral: createViralApi(context),
    songs: createSongsApi(context),
    agent: createAgentApi(context),
    videos: createVideosApi(context),
    media: createMediaApi(context),
  };
}

/**
 * The operations of no account (a tenant that connected none): every call with a valid input fails with `refusal()`,
 * and nothing is sent.
 */
export function createRefusingApi(refusal: () => Error): ServiceApi {
  const refuse = async (): Promise<never> => {
    throw refusal();
  };
  // The meter refuses each call before it is sent; the transport, never reached, has nowhere to send either.
  const context: OperationContext = {
    transport: { send: refuse },
    baseUrl: '',
    mediaUrl: '',
    meter: { open: refuse },
  };
  return createApi(context, createProfileRequests(context));
}

function positive(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`Service client option ${name} must be a positive number.`);
  }
}

/** Creates the service client. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  if (options.apiKey.trim() === '') throw new RangeError('Service client needs a non-empty apiKey.');
  for (const [name, url] of [
    ['baseUrl', options.baseUrl],
    ['mediaUrl', options.mediaUrl],
  ] as const) {
    if (!/^https?:\/\/[^/]/.test(url))
      throw new RangeError(`Service client option ${name} must be an http(s) URL.`);
  }
  const timeouts = Object.fromEntries(
    OPERATIONS.map((operation) => {
      const ms = options.timeouts?.[operation];
      positive(`timeouts.${operation}`, ms);
      return [operation, ms ?? OPERATION_TRAITS[operation].timeoutMs];
    }),
  ) as Record<OperationName, number>;
  const windowMs = options.profileBatch?.windowMs;
  if (windowMs !== undefined && !(Number.isFinite(windowMs) && windowMs >= 0)) {
    throw new RangeError('Service client option profileBatch.windowMs must be a number of at least 0.');
  }
  const retry = { ...DEFAULT_RETRY, ...definedOnly(options.retry ?? {}) };
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) {
    throw new RangeError('Service client option retry.maxAttempts must be a whole number of at least 1.');
  }
  const ownsRegistry = options.limiters === undefined;
  const registry = options.limiters ?? createRateLimiterRegistry({}, options.metrics);
  const limiter = registry.forKey(options.apiKey, definedOnly(options.rateLimit ?? {}));
  const transport = createTransport({
    apiKey: options.apiKey,
    limiter,
    timeouts,
    retry,
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const context: OperationContext = { transport, baseUrl: options.baseUrl, mediaUrl: options.mediaUrl };
  // One set of shared profile requests per key client: every invocation's calls join them.
  const profiles = createProfileRequests(context, options.profileBatch);
  return {
    ...createApi(context, profiles),
    metered: (meter, defaults) =>
      createApi({ ...context, meter, ...(defaults === undefined ? {} : { defaults }) }, profiles),
    stop: async () => {
      if (ownsRegistry) await registry.stop();
    },
  };
}

function definedOnly<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
