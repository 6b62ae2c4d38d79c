/**
 * The credit guard: every paid service call made on someone's behalf is checked against their daily cap and
 * written to the ledger (attributed to them, once per idempotency key) before it is sent, and completed after, by the
 * meter the service runner calls for each call of an invocation (createMeter).
 */
import { randomBytes } from 'node:crypto';
import type { Actor } from './actor.js';
import type { Clock } from './clock.js';
import { CreditCapError, StorageFullError, UnconfirmedChargeError } from './credit-errors.js';
import type { OperationName } from './service/operations.js';
import { PRICING } from './service/pricing.js';
import type { Meter, MeterEntry } from './service/types.js';
import type { PersonScope, Store } from './store/index.js';
import { isStorageFull } from './store/ledger-settle.js';

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

/**
 * Credits one invocation has set aside for its paid calls; what it spends moves from here to the ledger. It is kept in
 * the database (store/reservations.ts), so every process checking the person's cap counts it. A change made within
 * the person's step (Store.forPerson) is written with that step's repositories, `within`.
 */
export interface Reservation {
  /** Credits still set aside. */
  readonly left: number;
  /** Sets `credits` more aside. */
  add(credits: number, within?: PersonScope): Promise<void>;
  /** Counts `credits` as recorded in the ledger: that much is no longer set aside. */
  spend(credits: number, within?: PersonScope): Promise<void>;
  /** Gives back what is left; further calls do nothing. */
  release(): Promise<void>;
}

/** Credits set aside for paid work still running, per person, so simultaneous commands cannot pass a cap. */
export interface Reservations {
  /** A reservation for the person, holding nothing yet. */
  reserve(actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>): Reservation;
}

/** How long a reservation counts without being renewed: past the longest a command may run (Slack's 30 min). */
export const RESERVATION_TTL_MS = 35 * 60_000;

/** Creates the reservation book of this process (`owner`): its reservations lapse if the process dies. */
export function createReservations(options: {
  store: Store;
  clock: Clock;
  owner: string | null;
}): Reservations {
  const { store, clock, owner } = options;
  return {
    reserve(actor) {
      const person = { platform: actor.platform, workspaceId: actor.workspaceId, userId: actor.userId };
      const id = randomBytes(12).toString('base64url');
      let left = 0;
      let released = false;
      const write = (within?: PersonScope) =>
        (within ?? store).reservations.put(
          id,
          person,
          left,
          owner,
          new Date(clock.now().getTime() + RESERVATION_TTL_MS),
        );
      return {
        get left() {
          return left;
        },
        async add(more, within) {
          if (released || more <= 0) return;
          left += more;
          await write(within);
        },
        async spend(spent, within) {
          // Released meanwhile (the work ended with this call in flight): the release's delete could not see a row
          // this step wrote and has not committed yet, so the step removes it itself.
          if (released) return write(within);
          const taken = Math.min(left, Math.max(0, spent));
          if (taken === 0) return;
          left -= taken;
          await write(within);
        },
        async release() {
          if (released) return;
          released = true;
          if (left === 0) return;
          left = 0;
          await write();
        },
      };
    },
  };
}

/** Who pays, and how their cap is found. */
export interface BudgetScope {
  /** The person; `isAdmin` when known (a command's actor), so a balance alert can reach the admins seen acting. */
  actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'> & { readonly isAdmin?: boolean };
  store: Store;
  clock: Clock;
  /** Cap when no admin set one; null for none. */
  defaultDailyCap: number | null;
}

/**
 * Who pays for work done for `actor`: their cap is read from `app.store`, the deployment's default cap standing in
 * when no admin set one. Every command, job and view finds the payer here.
 */
export function budgetScopeFor(
  actor: BudgetScope['actor'],
  app: {
    readonly store: Store;
    readonly clock: Clock;
    readonly settings: { defaultDailyCap: number | null };
  },
): BudgetScope {
  return { actor, store: app.store, clock: app.clock, defaultDailyCap: app.settings.defaultDailyCap };
}

/**
 * Credits spent today by the actor (with what every process set aside for their work in flight), and their cap
 * (null: none); read through `within` inside the person's step.
 */
export async function budgetOf(
  scope: BudgetScope,
  within?: PersonScope,
): Promise<{ spentToday: number; cap: number | null }> {
  const { actor, store, clock } = scope;
  const from = within ?? store;
  const now = clock.now();
  const [spent, cap, held] = await Promise.all([
    from.ledger.spent(actor, utcDay(now)),
    from.settings.dailyCap(actor),
    from.reservations.held(actor, now),
  ]);
  return { spentToday: spent + held, cap: cap ?? scope.defaultDailyCap };
}

/**
 * Throws CreditCapError when spending `estimate` more credits today would pass the actor's cap. `covered` of it
 * is already set aside by the caller (and so counted in the budget): only the rest is new.
 */
export async function checkCap(
  scope: BudgetScope,
  estimate: number,
  covered = 0,
  within?: PersonScope,
): Promise<void> {
  if (estimate <= covered) return;
  const { spentToday, cap } = await budgetOf(scope, within);
  const before = spentToday - covered;
  if (cap !== null && before + estimate > cap) throw new CreditCapError(cap, before, estimate);
}

/**
 * Checks the cap and sets what `estimate` needs beyond `covered` aside in `reservation`, as one step for every
 * process sharing the database (Store.forPerson), so work running at the same time sees the others' reservations.
 */
export function reserveWithinCap(
  scope: BudgetScope,
  reservation: Reservation,
  estimate: number,
  covered = 0,
): Promise<void> {
  return scope.store.forPerson(scope.actor, (within) =>
    reserveNow(scope, reservation, estimate, covered, within),
  );
}

/** reserveWithinCap's step, inside the person's step. */
async function reserveNow(
  scope: BudgetScope,
  reservation: Reservation,
  estimate: number,
  covered: number,
  within: PersonScope,
) {
  await checkCap(scope, estimate, covered, within);
  await reservation.add(Math.max(0, estimate - covered), within);
}

/** Share of the daily cap past which a person is alerted before reaching it. */
export const CAP_WARNING_SHARE = 0.8;

/**
 * Right after a paid call is recorded: queues the alerts it set off (each at most once a day, see
 * store/budget-alerts.ts): the person's 80% or 100% of their daily cap, and the tenant's service balance below
 * SCOUT_BALANCE_ALERT, told to its known admins and to the person. Sending is the jobs' work, off this path.
 */
export async function noteSpend(scope: BudgetScope, balance: number | null): Promise<void> {
  const { actor, store, clock } = scope;
  const now = clock.now();
  const person = { platform: actor.platform, workspaceId: actor.workspaceId, userId: actor.userId };
  if (actor.isAdmin === true) await store.alerts.sawAdmin(person, now);
  const today = utcDay(now);
  const day = today.from.toISOString().slice(0, 10);
  const cap = (await store.settings.dailyCap(actor)) ?? scope.defaultDailyCap;
  if (cap !== null && cap > 0) {
    const spent = await store.ledger.spent(actor, today);
    const threshold = spent >= cap ? '100' : spent >= cap * CAP_WARNING_SHARE ? '80' : null;
    if (threshold !== null) {
      const details = { kind: 'cap' as const, spent, cap, resetsAt: today.to.toISOString() };
      await store.alerts.queueCap(person, threshold, day, details, now);
    }
  }
  const below = store.alerts.balanceAlert;
  if (below !== null && balance !== null && balance < below) {
    const tenant = { platform: actor.platform, workspaceId: actor.workspaceId };
    const recipients = [...(await store.alerts.knownAdmins(tenant)), actor.userId];
    const details = { kind: 'balance' as const, balance, threshold: below, crossedBy: actor.userId };
    await store.alerts.queueBalance(tenant, recipients, day, details, now);
  }
}

/** What a meter records its calls with, beyond who pays. */
export interface MeterOptions extends BudgetScope {
  /** Prefix of the idempotency keys of this invocation's paid calls (the invocation key). */
  keyPrefix: string;
  /** The chat command, for the ledger's per-command breakdown. */
  command: string | null;
  /** The service account charged, whose reported balances settle calls whose answer was lost. */
  accountId: string;
  /** This process: if it dies with a call in flight, the call is counted as an unconfirmed charge. */
  owner: string | null;
  /**
   * What the invocation set aside (in `reservations`): a paid call within it is not checked again; a call that
   * needs more grows it within the cap; what is written to the ledger is taken from it.
   */
  reservation?: Reservation;
  /** Told what each paid call cost once its answer says so, to sum what an answer spent. */
  charged?: (credits: number) => void;
}

/**
 * The meter of one invocation's service calls (ServiceClient.metered; the service runner opens an entry for each
 * call before sending it). A paid call is checked against the cap and written to the ledger at its estimate before it
 * is sent, and completed with its real cost after. A call that may have been charged without a readable answer stays
 * at its estimate, unconfirmed, and fails with UnconfirmedChargeError; it is never sent again by itself. A free call's
 * reported balance is kept to settle such calls.
 */
export function createMeter(options: MeterOptions): Meter {
  const { store, clock } = options;
  const { ledger } = store;
  let sequence = 0;
  const paid = async (op: OperationName, estimate: number): Promise<MeterEntry> => {
    const { reservation } = options;
    sequence += 1;
    const key = `${options.keyPrefix}#${sequence}`;
    // The cap check and the intent are one step, so two calls of one person at once, in any processes, cannot
    // both pass the cap.
    await store.forPerson(options.actor, async (within) => {
      if (reservation === undefined) await checkCap(options, estimate, 0, within);
      else await reserveNow(options, reservation, estimate, reservation.left, within);
      await intend(key, estimate, op, within.ledger);
      // Now in the ledger at its estimate: no longer set aside.
      await reservation?.spend(estimate, within);
    });
    const unitsOf = (credits: number) =>
      PRICING[op].kind === 'per-request' ? (credits > 0 ? 1 : 0) : credits;
    return {
      async answered(meta, share) {
        // Set aside and written at the estimate; settled at what the service says the call used (meta.cost), which
        // a cap counts from now on, whether it is less or more.
        await ledger.confirm(key, {
          credits: meta.cost,
          units: unitsOf(meta.cost),
          balance: meta.creditsRemaining,
          ...(share === undefined ? {} : { request: share.request }),
        });
        options.charged?.(meta.cost);
        // An alert that cannot be queued (a busy or full disk) never fails the call it follows.
        await quietly(() => noteSpend(options, meta.creditsRemaining));
      },
      async failed(error, mayHaveCharged, share) {
        // A request sent for several people's calls (profile-batch.ts) may have charged this call only for its own
        // part: its ids no one asked for before it. With none, nothing of it can be charged to this person.
        const owed = share === undefined ? estimate : Math.min(estimate, share.estimate);
        if (!mayHaveCharged || owed === 0) {
          await ledger.cancel(key);
          return error;
        }
        const part =
          share === undefined ? undefined : { credits: owed, units: unitsOf(owed), request: share.request };
        await ledger.doubt(key, clock.now(), part);
        await quietly(() => noteSpend(options, null));
        return new UnconfirmedChargeError(op, owed, error);
      },
    };
  };
  /** Writes the intent of a paid call; nothing is sent that the ledger could not hold. */
  async function intend(
    key: string,
    estimate: number,
    op: OperationName,
    into: Pick<Store['ledger'], 'intend'>,
  ): Promise<void> {
    try {
      await into.intend({
        at: clock.now(),
        platform: options.actor.platform,
        workspaceId: options.actor.workspaceId,
        userId: options.actor.userId,
        operation: op,
        command: options.command,
        estimate,
        units: PRICING[op].kind === 'per-request' ? 1 : estimate,
        accountId: options.accountId,
        owner: options.owner,
        idempotencyKey: key,
      });
    } catch (error) {
      if (isStorageFull(error)) throw new StorageFullError(true);
      throw error;
    }
  }
  const free = async (): Promise<MeterEntry> => {
    const tick = await quietly(() => ledger.tick());
    const sentAt = clock.now();
    return {
      async answered(meta) {
        const balance = meta.creditsRemaining;
        if (tick !== null && balance !== null)
          await quietly(() => ledger.reading(options.accountId, tick, sentAt, balance));
      },
      failed: async (error) => error,
    };
  };
  return {
    open: ({ operation, estimate }) =>
      PRICING[operation].kind === 'free' ? free() : paid(operation, estimate),
  };
}

/** Runs bookkeeping a call does not depend on; a failure of it (a full disk) only loses a reading or an alert. */
async function quietly<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch {
    return null;
  }
}
