/** Public types of the service sandbox. */

import type { AgentMessage } from './data/records.js';
import type { InboundReplyOptions } from './data/replies.js';

/** An API key the sandbox accepts, with its team, balance and limits. */
export interface SandboxKey {
  key: string;
  teamId: string;
  credits: number;
  /** CRM needs an active subscription; default true. */
  subscriptionActive?: boolean;
  /** Overrides the sandbox-wide rate limit for this key. */
  rateLimitPerMinute?: number;
  /** Signs the team's outreach emails. */
  ownerName?: string;
  /** The key's account is a trial account: its profile answers say `is_trial: true`. Default false. */
  trial?: boolean;
}

/** A failure the sandbox answers with instead of running the operation. */
export type SandboxFault =
  /** 429 with a Retry-After header and the rate-limit body of the operation's family. */
  | { kind: 'rate-limit'; retryAfterSeconds?: number }
  /** A 5xx (500 by default) with the error body of the operation's family. */
  | { kind: 'server-error'; status?: number }
  /** The request is accepted and never answered, until the client gives up or the sandbox stops. */
  | { kind: 'timeout' }
  /** 200 with a JSON content type and a body that is not JSON. */
  | { kind: 'malformed-json' }
  /** Any status with any body (a string is sent as is, anything else as JSON) and extra headers. */
  | { kind: 'error-shape'; status: number; body: unknown; headers?: Record<string, string> };

/** Options of createSandbox. */
export interface SandboxOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (ephemeral). */
  port?: number;
  /** Seed of the generated data; the data is a pure function of the seed and the clock at creation. */
  seed?: number;
  /** Accepted keys; default one demo key (DEMO_KEY). */
  keys?: SandboxKey[];
  /** Clock in milliseconds; default Date.now. */
  now?: () => number;
  /** A new inbound reply arrives for every team this often (0 = never; the default). */
  replyIntervalMs?: number;
  /** How long a remix takes to answer; default 0. */
  remixDelayMs?: number;
  /** Requests per rolling minute per key; default 60. */
  rateLimitPerMinute?: number;
  /**
   * Credits a songs request costs, charged and reported in its `credits_used`; default the contract's 10 (an account
   * may be priced otherwise).
   */
  songRequestCredits?: number;
}

/** One request the sandbox received. */
export interface SandboxRequestLog {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Query parameters (a repeated name shows its last value here; operations read the first). */
  query: Record<string, string>;
  /** The body: parsed JSON when it was JSON, the raw text otherwise, undefined when empty. */
  body: unknown;
  /** The x-ty-api-key sent, or null. */
  key: string | null;
  /** The status answered; 0 while unanswered (in flight, or held by a 'timeout' fault). */
  status: number;
  /** Clock reading when the request arrived. */
  at: number;
}

/** Options of Sandbox.addInboundReply. */
export type SandboxReplyOptions = InboundReplyOptions;

/** A message of the agent as the sandbox stores and serves it. */
export type SandboxAgentMessage = AgentMessage;

/** A running emulator of the service. */
export interface Sandbox {
  /** Base URL of the API (after start()). */
  readonly url: string;
  /** Base URL of the media operations: the API's host under the `/media` prefix. */
  readonly mediaUrl: string;
  /** Output host prefix of processed image and video files. */
  readonly outputUrl: string;
  /** Listens; resolves when the server is ready. */
  start(): Promise<void>;
  /** Closes every connection (held ones too) and clears every timer. */
  stop(): Promise<void>;
  /** Accepts another key (replaces one with the same value). */
  addKey(key: SandboxKey): void;
  /** Current balance of a key. */
  credits(key: string): number;
  /** Sets the balance of a key. */
  setCredits(key: string, credits: number): void;
  /** Makes the next `count` (default 1) requests of the key fail that way. */
  injectFaults(key: string, fault: SandboxFault, count?: number): void;
  /** Requests received (admin routes excepted), optionally only those of one key. */
  requests(key?: string): readonly SandboxRequestLog[];
  /** Makes a creator reply arrive now in one of the team's conversations; returns the new message. */
  addInboundReply(teamId: string, options?: SandboxReplyOptions): SandboxAgentMessage;
}
