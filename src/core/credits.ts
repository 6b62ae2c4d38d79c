/**
 * The credit guard: every paid service call made on someone's behalf is checked against their daily cap
 * before it is sent, and recorded in the ledger (attributed to them, once per idempotency key) after.
 */
import { type Actor, actorKey } from './actor.js';
import type { Clock } from './clock.js';
import { CreditCapError } from './command/errors.js';
import { ServiceError } from './service/errors.js';
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

/** Credits one invocation has set aside for its paid calls; what it spends moves from here to the ledger. */
export interface Reservation {
  /** Credits still set aside. */
  readonly left: number;
  /** Sets `credits` more aside. */
  add(credits: number): void;
  /** Counts `credits` as recorded in the ledger: that much is no longer set aside. */
  spend(credits: number): void;
  /** Gives back what is left; further calls do nothing. */
  release(): void;
}

/** Credits set aside for paid work still running, per person, so simultaneous commands cannot pass a cap. */
export interface Reservations {
  /** Sets `credits` aside for the person. */
  reserve(actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>, credits: number): Reservation;
  /** Credits currently set aside for the person. */
  held(actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>): number;
}

/** Creates an in-process reservation book. */
export function createReservations(): Reservations {
  const book = new Map<string, number>();
  const change = (key: string, delta: number) => {
    const next = (book.get(key) ?? 0) + delta;
    if (next > 0) book.set(key, next);
    else book.delete(key);
  };
  return {
    reserve(actor, credits) {
      const key = actorKey(actor);
      let left = 0;
      let released = false;
      const reservation: Reservation = {
        get left() {
          return left;
        },
        add(more) {
          if (released || more <= 0) return;
          left += more;
          change(key, more);
        },
        spend(spent) {
          const taken = Math.min(left, Math.max(0, spent));
          left -= taken;
          change(key, -taken);
        },
        release() {
          if (released) return;
          released = true;
          change(key, -left);
          left = 0;
        },
      };
      reservation.add(credits);
      return reservation;
    },
    held: (actor) => book.get(actorKey(actor)) ?? 0,
  };
}

/** Who pays, and how their cap is found. */
export interface BudgetScope {
  actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;
  store: Store;
  clock: Clock;
  /** Cap when no admin set one; null for none. */
  defaultDailyCap: number | null;
  /** Credits set aside for the person's work in flight; counted as spent by the cap. */
  reservations?: Reservations;
}

/** Credits spent today by the actor (with what is set aside for work in flight), and their cap (null: none). */
export function budgetOf(scope: BudgetScope): { spentToday: number; cap: number | null } {
  const { actor, store, clock } = scope;
  const spentToday = store.ledger.spent(actor, utcDay(clock.now())) + (scope.reservations?.held(actor) ?? 0);
  return { spentToday, cap: store.settings.dailyCap(actor) ?? scope.defaultDailyCap };
}

/**
 * Throws CreditCapError when spending `estimate` more credits today would pass the actor's cap. `covered` of it
 * is already set aside by the caller (and so counted in the budget): only the rest is new.
 */
export function checkCap(scope: BudgetScope, estimate: number, covered = 0): void {
  if (estimate <= covered) return;
  const { spentToday, cap } = budgetOf(scope);
  const before = spentToday - covered;
  if (cap !== null && before + estimate > cap) throw new CreditCapError(cap, before, estimate);
}

/**
 * Checks the cap and sets what `estimate` needs beyond `covered` aside in `reservation`, in one step (no await
 * between them), so work running at the same time sees the others' reservations.
 */
export function reserveWithinCap(
  scope: BudgetScope,
  reservation: Reservation,
  estimate: number,
  covered = 0,
): void {
  checkCap(scope, estimate, covered);
  reservation.add(Math.max(0, estimate - covered));
}

/** Options of a metered client. */
export interface MeterOptions extends BudgetScope {
  /** Prefix of the idempotency keys of this invocation's paid calls (the invocation key). */
  keyPrefix: string;
  /** The chat command, for the ledger's per-command breakdown. */
  command: string | null;
  /**
   * What the invocation set aside (in `reservations`): a paid call within it is not checked again; a call that
   * needs more grows it within the cap; what is recorded is taken from it.
   */
  reservation?: Reservation;
}

const OPERATION_SET: ReadonlySet<string> = new Set(OPERATIONS);

const isSuccess = (status: number | null) => status !== null && status >= 200 && status < 300;

function isResult(value: unknown): value is ServiceResult<unknown> {
  return typeof value === 'object' && value !== null && 'meta' in value;
}

/**
 * Wraps a service client so that each priced operation (`group.method`, named as in OPERATIONS) is checked
 * against the cap first and written to the ledger after. Free operations pass straight through.
 */
export function meterClient<C extends object>(client: C, options: MeterOptions): C {
  let sequence = 0;
  // Credits of this client's calls in flight, claimed from the reservation until their cost is recorded.
  let inFlight = 0;
  const record = (operation: OperationName, credits: number, balance: number | null) => {
    sequence += 1;
    options.store.ledger.record({
      at: options.clock.now(),
      platform: options.actor.platform,
      workspaceId: options.actor.workspaceId,
      userId: options.actor.userId,
      operation,
      command: options.command,
      units: PRICING[operation].kind === 'per-request' ? 1 : credits,
      credits,
      balance,
      idempotencyKey: `${options.keyPrefix}#${sequence}`,
    });
    // Now in the ledger: no longer set aside.
    options.reservation?.spend(credits);
  };
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
          const estimate = estimateCost(op, typeof input === 'object' && input !== null ? input : {});
          const { reservation } = options;
          if (reservation === undefined) checkCap(options, estimate);
          else reserveWithinCap(options, reservation, estimate, Math.max(0, reservation.left - inFlight));
          inFlight += estimate;
          let result: unknown;
          try {
            result = await value.apply(target, args);
          } catch (error) {
            inFlight -= estimate;
            // The service answered 2xx (and charged) but its body could not be read: record the estimate, so the
            // spend is neither lost from the ledger nor from the cap.
            const charged =
              error instanceof ServiceError && error.code === 'BAD_RESPONSE' && isSuccess(error.status);
            if (charged && estimate > 0) record(op, estimate, null);
            throw error;
          }
          inFlight -= estimate;
          if (isResult(result) && result.meta.cost > 0)
            record(op, result.meta.cost, result.meta.creditsRemaining);
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
