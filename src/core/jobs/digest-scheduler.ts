/**
 * The digest scheduler: once a day per digest, at its local time (or at start, when the time passed while Scout
 * was down and the day is not over), chooses the posts with credits charged to the digest's creator and queues the
 * day's post with them in the outbox, in one transaction; the outbox posts it once (outbox.ts).
 */
import { randomBytes } from 'node:crypto';
import { CreditCapError, UnconfirmedChargeError } from '../credit-errors.js';
import { budgetScopeFor, createMeter } from '../credits.js';
import { type Digest, type DigestPayload, digestKey } from '../store/digests.js';
import type { ServiceAccount } from '../tenancy/index.js';
import { formatCredits } from '../ui/index.js';
import { chooseDigestPosts, digestReply } from './digest-view.js';
import { type Courier, type DeliveryDeps, deliverPosts } from './outbox.js';
import { endOfLocalDay, localDayOf, zonedInstant } from './time-zone.js';

/** What the scheduler needs. */
export type DigestSchedulerOptions = DeliveryDeps;

/** The scheduler's one step, run by the jobs loop (and by tests directly). */
export interface DigestScheduler {
  /** Prepares every digest that is due today and posts every prepared run; returns how many were posted. */
  check(signal?: AbortSignal): Promise<number>;
}

/** The local day whose run is due now, or null (not yet time, day over, or scheduled before the digest existed). */
export function dueDay(digest: Digest, now: Date): string | null {
  const day = localDayOf(now, digest.timeZone);
  const at = zonedInstant(day, digest.localTime, digest.timeZone);
  if (now < at || at < digest.createdAt) return null;
  return now < endOfLocalDay(day, digest.timeZone) ? day : null;
}

/** Creates the digest scheduler. */
export function createDigestScheduler(options: DigestSchedulerOptions): DigestScheduler {
  const { app, logger, clock } = options;
  const { store } = app;

  const prepare = async (
    digest: Digest,
    account: ServiceAccount,
    day: string,
    signal?: AbortSignal,
  ): Promise<void> => {
    const actor = { platform: digest.platform, workspaceId: digest.workspaceId, userId: digest.createdBy };
    // Held with the creator's commands in flight, so together they stay within the creator's cap.
    const reservation = app.reservations.reserve(actor);
    const service = account.service.metered(
      createMeter({
        ...budgetScopeFor(actor, app),
        reservation,
        // A fresh prefix per attempt: a retry after a crash is a new purchase and must be recorded as one.
        keyPrefix: `digest:${digest.id}:${day}:${randomBytes(6).toString('base64url')}`,
        command: 'digest',
        accountId: account.id,
        owner: app.processId,
      }),
    );
    let chosen: { posts: Record<string, unknown>[]; note: string | null };
    try {
      const posts = await chooseDigestPosts(
        service,
        { filters: digest.filters, top: digest.top, localDay: day },
        (ids) => store.digests.shown(digest.id, ids),
        signal === undefined ? { priority: 'background' } : { priority: 'background', signal },
      );
      chosen = { posts: posts.map((p) => ({ ...p })), note: null };
    } catch (error) {
      if (error instanceof UnconfirmedChargeError) {
        // Choosing again would pay again for what the service may already have charged: skip the day instead.
        logger.warn({ err: error.cause, digest: digest.id }, error.message);
        chosen = {
          posts: [],
          note: `Skipped today: the service may have charged for the search (up to ${formatCredits(error.estimate)}) but its answer was lost, and searching again could charge twice.`,
        };
      } else if (error instanceof CreditCapError) {
        chosen = {
          posts: [],
          note: `Skipped: it needs up to ${formatCredits(error.estimate)} and its creator's daily cap of ${error.cap} is reached.`,
        };
      } else throw error;
    } finally {
      // A reservation left behind lapses with its expiry: it never hides what happened.
      await reservation
        .release()
        .catch((error: unknown) => logger.warn({ err: error }, 'Could not release a reservation.'));
    }
    await store.digests.begin(digest, day, chosen, clock.now());
  };

  const courier: Courier<DigestPayload> = {
    kind: 'digest',
    what: 'A digest',
    async prepare({ payload }) {
      const digest = await store.digests.get(payload.digestId);
      // A digest removed since its day was queued posts nothing.
      if (digest === null || digest.removedAt !== null) return 'drop';
      const { localTime, timeZone, filters } = digest;
      const heading = { id: digest.id, localDay: payload.localDay, localTime, timeZone, filters };
      return { reply: digestReply(heading, payload.posts, payload.note) };
    },
    done: (_post, outcome) => app.metrics.digestRun(outcome === 'posted' ? 'posted' : 'post_failed'),
  };

  const deliver = async (signal?: AbortSignal): Promise<number> =>
    deliverPosts(options, courier, await store.outbox.unposted<DigestPayload>('digest'), signal);

  /** Prepares the due digests of one account in turn; returns the first failure, if any. */
  const prepareAll = async (
    account: ServiceAccount,
    due: ReadonlyArray<{ digest: Digest; day: string }>,
    signal?: AbortSignal,
  ): Promise<unknown> => {
    let failure: unknown = null;
    for (const { digest, day } of due) {
      if (signal?.aborted) break;
      try {
        await prepare(digest, account, day, signal);
      } catch (error) {
        if (signal?.aborted) break;
        failure ??= error;
        app.metrics.digestRun('prepare_failed');
        logger.warn(
          { err: error, digest: digest.id },
          'A digest could not be prepared; it will be tried again.',
        );
      }
    }
    return failure;
  };

  return {
    async check(signal) {
      // Each tenant's digests run on its own account; accounts side by side, so one waiting on its own rate
      // limit does not hold up another's. Digests of a tenant without an account wait until it has one.
      const groups = new Map<
        string,
        { account: ServiceAccount; due: Array<{ digest: Digest; day: string }> }
      >();
      for (const digest of await store.digests.active()) {
        const day = dueDay(digest, clock.now());
        if (day === null || (await store.outbox.find(digest, digestKey(digest.id, day))) !== null) continue;
        const access = await app.tenants.access(digest);
        if (access.status !== 'ok') continue;
        const group = groups.get(access.account.id) ?? { account: access.account, due: [] };
        group.due.push({ digest, day });
        groups.set(access.account.id, group);
      }
      const failures = await Promise.all(
        [...groups.values()].map((g) => prepareAll(g.account, g.due, signal)),
      );
      const failure = failures.find((f) => f !== null) ?? null;
      const posted = await deliver(signal);
      // Reported after the others had their turn, so the loop backs off (longer on 429) without starving them.
      if (failure !== null) throw failure;
      return posted;
    },
  };
}
