/** Keys of the sandbox: balances, rolling-minute rate limits and queued faults. */

import { SetupError } from '../core/errors.js';
import { SandboxHttpError } from './server/http.js';
import type { SandboxFault, SandboxKey } from './types.js';

/** The rate-limit window. */
const WINDOW_MS = 60_000;

/** The live state of one key. */
export interface Account {
  readonly key: string;
  readonly teamId: string;
  readonly ownerName: string;
  credits: number;
  subscriptionActive: boolean;
  /** A trial account: profile answers say so (`is_trial`). */
  readonly trial: boolean;
  readonly rateLimitPerMinute: number;
  /** Arrival times of the requests counted in the current window. */
  readonly hits: number[];
  /** Faults still to answer with, in order. */
  readonly faults: SandboxFault[];
}

/** The outcome of counting one request against the rate limit. */
export interface RateDecision {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until a request would be allowed again (when refused). */
  retryAfterSeconds: number;
}

/** The set of accepted keys. */
export interface Accounts {
  /** The account of a key, if accepted. */
  get(key: string): Account | undefined;
  /** The account of a key; throws for an unknown key (a programming error of the caller). */
  require(key: string): Account;
  /** Accepts a key (replacing one with the same value). */
  add(key: SandboxKey): Account;
  /** Every account. */
  all(): readonly Account[];
  /** Counts a request at `now`; refused requests are not counted. */
  hit(account: Account, now: number): RateDecision;
  /** Requests left in the window at `now`. */
  remaining(account: Account, now: number): number;
}

/** Creates the key registry; `rateLimitPerMinute` applies to keys without their own limit. */
export function createAccounts(keys: readonly SandboxKey[], rateLimitPerMinute: number): Accounts {
  const accounts = new Map<string, Account>();
  const prune = (account: Account, now: number): void => {
    while (account.hits.length > 0 && (account.hits[0] as number) <= now - WINDOW_MS) account.hits.shift();
  };
  const add = (key: SandboxKey): Account => {
    if (key.key.trim() === '') throw new SetupError('A sandbox key needs a non-empty value');
    const account: Account = {
      key: key.key,
      teamId: key.teamId,
      ownerName: key.ownerName ?? 'The Scout team',
      credits: key.credits,
      subscriptionActive: key.subscriptionActive ?? true,
      trial: key.trial ?? false,
      rateLimitPerMinute: key.rateLimitPerMinute ?? rateLimitPerMinute,
      hits: [],
      faults: [],
    };
    accounts.set(key.key, account);
    return account;
  };
  for (const key of keys) add(key);
  return {
    get: (key) => accounts.get(key),
    require: (key) => {
      const account = accounts.get(key);
      if (!account) throw new SandboxHttpError(404, `The sandbox has no key '${key}'`);
      return account;
    },
    add,
    all: () => [...accounts.values()],
    hit: (account, now) => {
      prune(account, now);
      if (account.hits.length >= account.rateLimitPerMinute) {
        const oldest = account.hits[0] ?? now;
        return {
          allowed: false,
          remaining: 0,
          retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
        };
      }
      account.hits.push(now);
      return {
        allowed: true,
        remaining: account.rateLimitPerMinute - account.hits.length,
        retryAfterSeconds: 0,
      };
    },
    remaining: (account, now) => {
      prune(account, now);
      return Math.max(0, account.rateLimitPerMinute - account.hits.length);
    },
  };
}
