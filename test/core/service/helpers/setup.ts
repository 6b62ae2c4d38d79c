/** Builds the real client against the sandbox (or a fake) over loopback HTTP, and tears everything down. */

import { Agent } from 'undici';
import { createServiceClient, type ServiceClientOptions } from '../../../../src/core/service/client.js';
import {
  createRateLimiterRegistry,
  type RateLimiterRegistry,
} from '../../../../src/core/service/rate-limiter.js';
import type { Logger } from '../../../../src/core/service/types.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../../src/sandbox/index.js';
import { type UnbookedClient, unbooked } from '../../../helpers/unbooked.js';

/** The key every sandbox of these tests accepts. */
export const KEY = 'k1';
/** The team of KEY. */
export const TEAM = 't1';

/** Fast retries so failure paths finish in milliseconds. */
export const FAST_RETRY = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20 } as const;

/** Everything a test needs: the sandbox, the client (every operation, no books kept), the shared pieces. */
export interface Harness {
  sandbox: Sandbox;
  client: UnbookedClient;
  dispatcher: Agent;
  limiters: RateLimiterRegistry;
  /** Another client on the same sandbox, key and limiters, with other options. */
  clientWith(options: Partial<ServiceClientOptions>): UnbookedClient;
  stop(): Promise<void>;
}

/** One log line the recording logger kept. */
export interface LogLine {
  level: string;
  obj: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps every line. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg: string) =>
    lines.push({ level, obj, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Starts a sandbox with KEY and a client on it. */
export async function startHarness(
  options: { sandbox?: SandboxOptions; client?: Partial<ServiceClientOptions> } = {},
): Promise<Harness> {
  const sandbox = createSandbox({
    keys: [{ key: KEY, teamId: TEAM, credits: 1000 }],
    rateLimitPerMinute: 600,
    remixDelayMs: 0,
    ...options.sandbox,
  });
  await sandbox.start();
  const dispatcher = new Agent({ keepAliveTimeout: 1_000 });
  const limiters = createRateLimiterRegistry();
  const clientWith = (extra: Partial<ServiceClientOptions>) =>
    unbooked(
      createServiceClient({
        apiKey: KEY,
        baseUrl: sandbox.url,
        mediaUrl: sandbox.mediaUrl,
        dispatcher,
        limiters,
        retry: FAST_RETRY,
        ...options.client,
        ...extra,
      }),
    );
  return {
    sandbox,
    client: clientWith({}),
    dispatcher,
    limiters,
    clientWith,
    async stop() {
      await limiters.stop();
      await sandbox.stop();
      await dispatcher.close();
    },
  };
}
