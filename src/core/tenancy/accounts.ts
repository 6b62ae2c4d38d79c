/**
 * Service accounts: one service client per API key, all sharing one rate-limiter registry, so each key has its
 * own allowance (60 requests a minute) and its own queue: one team using up its allowance never slows another.
 */
import { createHash } from 'node:crypto';
import {
  createRateLimiterRegistry,
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
} from '../service/index.js';
import type { RateWindows } from '../service/rate-window.js';

/** A service account Scout can call the service with. */
export interface ServiceAccount {
  /** A fingerprint of the key: what scopes caches and poller state; never the key itself. */
  readonly id: string;
  /** The key's last four characters, for display (`…a1b2`). */
  readonly hint: string;
  /** The key's client: its free operations as they are, every operation through an invocation's meter (`metered`). */
  readonly service: ServiceClient;
}

/** The fingerprint of a key (SHA-256, shortened): stable, and useless for calling the service. */
export function accountIdOf(apiKey: string): string {
  return `acct_${createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 24)}`;
}

/** The last four characters of a key. */
export function keyHint(apiKey: string): string {
  return apiKey.slice(-4);
}

/** Options shared by every account's client (everything but the key). */
export type AccountClientOptions = Omit<ServiceClientOptions, 'apiKey' | 'limiters'>;

/** The accounts in use, created on first use. */
export interface AccountPool {
  forKey(apiKey: string): ServiceAccount;
  /**
   * Checks a key with one free call (a creator search) on a client of its own, kept apart from the pool: a rejected
   * key leaves nothing behind (no client, no limiter, no entry in the logger's secrets). Resolves with the balance
   * the service reported; rejects with the service's error.
   */
  check(apiKey: string): Promise<number | null>;
  /** Drops an account's client (a disconnected or rejected key); its limiter stays until stop(). */
  drop(accountId: string): void;
  stop(): Promise<void>;
}

/**
 * Creates the pool; each new key is added to `secrets`, so the logger masks it wherever it appears. With `shared`,
 * each key's rate window is shared with the other replicas (REDIS_URL); stop() disconnects it.
 */
export function createAccountPool(
  options: AccountClientOptions,
  secrets?: Set<string>,
  shared?: RateWindows,
): AccountPool {
  const limiters = createRateLimiterRegistry({}, options.metrics, shared);
  const accounts = new Map<string, ServiceAccount>();
  return {
    forKey(apiKey) {
      const id = accountIdOf(apiKey);
      const known = accounts.get(id);
      if (known !== undefined) return known;
      secrets?.add(apiKey);
      const account = {
        id,
        hint: keyHint(apiKey),
        service: createServiceClient({ ...options, apiKey, limiters }),
      };
      accounts.set(id, account);
      return account;
    },
    async check(apiKey) {
      const probe = createServiceClient({ ...options, apiKey, retry: { maxAttempts: 1 } });
      try {
        return (await probe.creators.search({ perPage: 1 })).meta.creditsRemaining;
      } finally {
        await probe.stop();
      }
    },
    drop(accountId) {
      accounts.delete(accountId);
    },
    async stop() {
      accounts.clear();
      await limiters.stop();
    },
  };
}
