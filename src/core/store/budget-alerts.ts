/**
 * Budget alerts: one private message per person and threshold (80% and 100% of their daily cap) per UTC day, and
 * one per tenant and day when its service balance is below the alert threshold, told to its admins. Each is a post
 * in the outbox (outbox.ts) whose key is the once-guard, so processes sharing the database queue an alert once.
 */
import { createOutbox, type NewPost, type PostTenant } from './outbox.js';
import { type Sql, sql } from './sql.js';

/** What an alert is about: 80% or 100% of the person's daily cap, or the tenant's low balance. */
export type AlertThreshold = '80' | '100' | 'balance';

/** A person on a platform. */
export type AlertPerson = PostTenant & { userId: string };

/** The numbers a cap alert states. */
export interface CapDetails {
  kind: 'cap';
  /** Credits spent today when the threshold was passed. */
  spent: number;
  cap: number;
  /** When the cap resets: the next 00:00 UTC, ISO 8601. */
  resetsAt: string;
}

/** The numbers a balance alert states. */
export interface BalanceDetails {
  kind: 'balance';
  /** The balance the service reported. */
  balance: number;
  /** SCOUT_BALANCE_ALERT. */
  threshold: number;
  /** The person whose call reported it. */
  crossedBy: string;
}

/** The numbers of an alert. */
export type AlertDetails = CapDetails | BalanceDetails;

/** What an alert's message is rendered from; `day` is the UTC day, YYYY-MM-DD. */
export type AlertPayload = { threshold: AlertThreshold; day: string; details: AlertDetails };

/** The key of an alert's post, stable across retries and restarts: one per person, threshold and UTC day. */
export const alertKey = (userId: string, threshold: AlertThreshold, day: string) =>
  `alert:${userId}:${threshold}:${day}`;

/** Options of the budget alerts repository. */
export interface BudgetAlertOptions {
  /** SCOUT_BALANCE_ALERT: a balance below this many credits alerts the tenant's admins; null: never. */
  balanceAlert?: number | null;
}

/** Repository of budget alerts. */
export interface BudgetAlerts {
  /** The balance below which a tenant's admins are alerted; null when balance alerts are off. */
  readonly balanceAlert: number | null;
  /**
   * Queues the person's alert for `threshold` on `day` unless one was queued already; passing 100% at once also
   * settles 80% for the day, unsent. Returns whether it was queued now.
   */
  queueCap(
    person: AlertPerson,
    threshold: '80' | '100',
    day: string,
    details: CapDetails,
    now: Date,
  ): Promise<boolean>;
  /**
   * Queues the tenant's balance alert of `day`, to each of `recipients`, unless the tenant had one that day.
   * Returns whether it was queued now.
   */
  queueBalance(
    tenant: PostTenant,
    recipients: readonly string[],
    day: string,
    details: BalanceDetails,
    now: Date,
  ): Promise<boolean>;
  /** The platform admins the tenant is known to have: Scout admins and who named them, who connected its key, admins seen spending. */
  knownAdmins(tenant: PostTenant): Promise<string[]>;
  /** Records that a platform admin was seen acting. */
  sawAdmin(person: AlertPerson, now: Date): Promise<void>;
  /** Calls `listener` after an alert is queued, in this process; returns the unsubscribe function. */
  onQueued(listener: () => void): () => void;
}

/** The outbox post of an alert to a person; `dropped` records it settled unsent. */
const alertPost = (person: AlertPerson, payload: AlertPayload, now: Date, dropped = false): NewPost => ({
  kind: 'budget-alert',
  platform: person.platform,
  workspaceId: person.workspaceId,
  to: { userId: person.userId },
  key: alertKey(person.userId, payload.threshold, payload.day),
  // A tenant's balance alerts of a day are one series: the tenant has one that day once any is queued.
  series: payload.threshold === 'balance' ? `balance:${payload.day}` : null,
  happenedAt: now.toISOString(),
  payload,
  state: dropped ? 'dropped' : 'pending',
});

/** Queues a cap alert (see BudgetAlerts.queueCap), in one transaction. */
function queueCap(db: Sql, person: AlertPerson, payload: AlertPayload, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const outbox = createOutbox(tx);
    const { platform, workspaceId, userId } = person;
    // Another process queueing this person's other threshold of the day waits: 80% never follows 100%.
    await tx.lock(`budget-alerts:cap:${JSON.stringify([platform, workspaceId, userId, payload.day])}`);
    // Spend counted lower later (a lost call settled for less) does not bring 80% back after 100%.
    if (
      payload.threshold === '80' &&
      (await outbox.find(person, alertKey(userId, '100', payload.day))) !== null
    )
      return false;
    const queued = await outbox.queue(alertPost(person, payload, now), now);
    // 80% is no news once 100% is told.
    if (queued && payload.threshold === '100')
      await outbox.queue(alertPost(person, { ...payload, threshold: '80' }, now, true), now);
    return queued;
  });
}

/** Queues a tenant's balance alert (see BudgetAlerts.queueBalance), in one transaction. */
function queueBalance(
  db: Sql,
  tenant: PostTenant,
  recipients: readonly string[],
  payload: AlertPayload,
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const outbox = createOutbox(tx);
    // A process queueing the tenant's alert of the day at the same time waits for this one, then finds it.
    await tx.lock(`budget-alerts:balance:${tenant.platform}:${tenant.workspaceId}:${payload.day}`);
    if ((await outbox.count({ series: `balance:${payload.day}`, tenant })) > 0) return false;
    for (const userId of new Set(recipients)) {
      await outbox.queue(alertPost({ ...tenant, userId }, payload, now), now);
    }
    return true;
  });
}

/** Creates the budget alerts repository. */
export function createBudgetAlerts(db: Sql, options: BudgetAlertOptions = {}): BudgetAlerts {
  const listeners = new Set<() => void>();
  const notify = (queued: boolean) => {
    if (!queued) return queued;
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // A listener only wakes a sender; the alert stays queued for its next round.
      }
    }
    return queued;
  };

  return {
    balanceAlert: options.balanceAlert ?? null,
    queueCap: async (person, threshold, day, details, now) =>
      notify(await queueCap(db, person, { threshold, day, details }, now)),
    queueBalance: async (tenant, recipients, day, details, now) =>
      notify(await queueBalance(db, tenant, recipients, { threshold: 'balance', day, details }, now)),
    async knownAdmins(tenant) {
      const { platform, workspaceId } = tenant;
      const rows = await db.all<{ userId: string }>(
        sql`SELECT user_id AS "userId" FROM tenant_admins WHERE platform = ${platform} AND workspace_id = ${workspaceId}
            UNION SELECT added_by FROM tenant_admins WHERE platform = ${platform} AND workspace_id = ${workspaceId}
            UNION SELECT connected_by FROM tenant_accounts WHERE platform = ${platform} AND workspace_id = ${workspaceId}
            UNION SELECT user_id FROM known_admins WHERE platform = ${platform} AND workspace_id = ${workspaceId}
            ORDER BY 1`,
      );
      return rows.map((row) => row.userId);
    },
    async sawAdmin(person, now) {
      await db.run(
        sql`INSERT INTO known_admins (platform, workspace_id, user_id, seen_at)
            VALUES (${person.platform}, ${person.workspaceId}, ${person.userId}, ${now.toISOString()})
            ON CONFLICT (platform, workspace_id, user_id) DO UPDATE SET seen_at = excluded.seen_at`,
      );
    },
    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
