/** Operation table of the sandbox: method + path pattern -> handler, with 404 and 405 answers. */
import type { Account } from '../accounts.js';
import type { TeamState } from '../data/teams.js';
import type { World } from '../data/world.js';
import type { ErrorFamily } from './http.js';

/** What an operation sees of the request and of the sandbox. */
export interface OperationContext {
  readonly method: string;
  readonly path: string;
  /** Path parameters by name (`:list_id` -> `list_id`), URL-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly account: Account;
  readonly world: World;
  /** Clock reading at arrival. */
  readonly now: number;
  /** The parsed JSON body (undefined when empty); fails with 400 when it is not JSON. */
  body(): unknown;
  /** The state of the key's team. */
  team(): TeamState;
  /** Fails with 402 unless the balance covers `units` credits. */
  requireCredits(units: number): void;
  /** Charges `units` credits, or fails with 402 (charging nothing) when the balance is short. */
  charge(units: number): void;
  /** Where processed media files live, and how to publish one. */
  readonly media: MediaOutput;
}

/** Publishing of processed media files on the output host. */
export interface MediaOutput {
  /** How long a remix takes, in ms. */
  readonly delayMs: number;
  /** Publishes a processed file and returns its URL on the output host. */
  publish(kind: 'image' | 'video', name: string): string;
}

/** The answer of an operation. */
export interface OperationResult {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Answer only after this many ms (remix processing time). */
  delayMs?: number;
}

/** One operation of the service. */
export interface Operation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with `:name` segments, e.g. `/api/v2/crm/lists/:list_id`. */
  readonly pattern: string;
  readonly family: ErrorFamily;
  handle(context: OperationContext): OperationResult;
}

/** A routing decision. */
export type RouteMatch =
  | { kind: 'found'; operation: Operation; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const g = got[i] as string;
    if (w.startsWith(':')) {
      if (g === '') return undefined;
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

/** Creates the router over an operation table. */
export function createRouter(operations: readonly Operation[]): (method: string, path: string) => RouteMatch {
  return (method, path) => {
    const allowed: string[] = [];
    for (const operation of operations) {
      const params = matchPattern(operation.pattern, path);
      if (!params) continue;
      if (operation.method === method) return { kind: 'found', operation, params };
      allowed.push(operation.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  };
}
