/**
 * The credit guard: every paid service call made on someone's behalf is checked against their daily cap
 * before it is sent, and recorded in the ledger (attributed to them, once per idempotency key) after.
 */
import type { Actor } from './actor.js';
import type { Clock } from './clock.js';
import { CreditCapError } from './command/errors.js';
import { OPERATIONS, type OperationName } from './service/operations.js';
import { estimateCost, PRICING } from './service/pricing.js';
import type { ServiceResult } from './service/types.js';
import type { Store } from './store/index.js';

/** The UTC day containing `now`, as a ledger range. */
export function utcDay(now: Date): { from: Date; to: Date } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

/** The UTC month containing `now`, as a ledger range. */
export function utcMonth(now: Date): { from: Date; to: Date } {
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** Who pays, and how their cap is found. */
export interface BudgetScope {
  actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;
  store: Store;
  clock: Clock;
  /** Cap when no admin set one; null for none. */
  defaultDailyCap: number | null;
}

/** Credits spent today by the actor, and their cap (null: none). */
export function budgetOf(scope: BudgetScope): { spentToday: number; cap: number | null } {
  const { actor, store, clock } = scope;
  const spentToday = store.ledger.spent(actor, utcDay(clock.now()));
  return { spentToday, cap: store.settings.dailyCap(actor) ?? scope.defaultDailyCap };
}

/** Throws CreditCapError when spending `estimate` more credits today would pass the actor's cap. */
export function checkCap(scope: BudgetScope, estimate: number): void {
  if (estimate <= 0) return;
  const { spentToday, cap } = budgetOf(scope);
  if (cap !== null && spentToday + estimate > cap) throw new CreditCapError(cap, spentToday, estimate);
}

/** Options of a metered client. */
export interface MeterOptions extends BudgetScope {
  /** Prefix of the idempotency keys of this invocation's paid calls (the invocation key). */
  keyPrefix: string;
  /** The chat command, for the ledger's per-command breakdown. */
  command: string | null;
}

const OPERATION_SET: ReadonlySet<string> = new Set(OPERATIONS);

function isResult(value: unknown): value is ServiceResult<unknown> {
  return typeof value === 'object' && value !== null && 'meta' in value;
}

/**
 * Wraps a service client so that each priced operation (`group.method`, named as in OPERATIONS) is checked
 * against the cap first and written to the ledger after. Free operations pass straight through.
 */
export function meterClient<C extends object>(client: C, options: MeterOptions): C {
  let sequence = 0;
  const wrapGroup = (groupName: string, group: object) =>
    new Proxy(group, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        const operation = `${groupName}.${String(property)}`;
        if (typeof value !== 'function' || !OPERATION_SET.has(operation)) return value;
        const op = operation as OperationName;
        if (PRICING[op].kind === 'free') return value.bind(target);
        return async (...args: unknown[]) => {
          const input = args[0];
          checkCap(options, estimateCost(op, typeof input === 'object' && input !== null ? input : {}));
          const result: unknown = await value.apply(target, args);
          if (isResult(result) && result.meta.cost > 0) {
            sequence += 1;
            options.store.ledger.record({
              at: options.clock.now(),
              platform: options.actor.platform,
              workspaceId: options.actor.workspaceId,
              userId: options.actor.userId,
              operation: op,
              command: options.command,
              units: PRICING[op].kind === 'per-request' ? 1 : result.meta.cost,
              credits: result.meta.cost,
              balance: result.meta.creditsRemaining,
              idempotencyKey: `${options.keyPrefix}#${sequence}`,
            });
          }
          return result;
        };
      },
    });
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value === 'object' && value !== null) return wrapGroup(String(property), value);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
