/**
 * Budget alerts: one private message per person and threshold (80% and 100% of their daily cap) per UTC day, and
 * one per tenant and day when its service balance is below the alert threshold, told to its admins. The row's
 * primary key is the once-guard, inserted ON CONFLICT DO NOTHING, so processes sharing the database queue an
 * alert once; a queued row goes pending → posting → posted, and a post is claimed by one process at a time.
 */
import type { Platform } from '../actor.js';
import { HEARTBEAT_STALE_MS } from './processes.js';
import { type Sql, sql } from './sql.js';

/** What an alert is about: 80% or 100% of the person's daily cap, or the tenant's low balance. */
export type AlertThreshold = '80' | '100' | 'balance';

/** A person on a platform. */
export interface AlertPerson {
  platform: Platform;
  workspaceId: string;
  userId: string;
}

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

/** A queued alert, to post or posted. */
export interface BudgetAlert extends AlertPerson {
  threshold: AlertThreshold;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  state: 'pending' | 'posting' | 'posted' | 'dropped';
  details: AlertDetails;
  attempts: number;
}

/** A claim on an alert's post: whether an earlier attempt may have landed, and how many attempts there were. */
export interface AlertClaim {
  mayHaveLanded: boolean;
  attempts: number;
}

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
    tenant: { platform: Platform; workspaceId: string },
    recipients: readonly string[],
    day: string,
    details: BalanceDetails,
    now: Date,
  ): Promise<boolean>;
  /** The platform admins the tenant is known to have: Scout admins and who named them, who connected its key, admins seen spending. */
  knownAdmins(tenant: { platform: Platform; workspaceId: string }): Promise<string[]>;
  /** Records that a platform admin was seen acting. */
  sawAdmin(person: AlertPerson, now: Date): Promise<void>;
  /** Alerts not yet known to be posted, oldest first. */
  unsent(): Promise<BudgetAlert[]>;
  /**
   * Claims an alert's post for process `owner`: a pending one, or one left posting by this process or by a process
   * that is gone. Null when another live process has it, or it is posted or dropped.
   */
  claim(alert: BudgetAlert, owner: string, now: Date): Promise<AlertClaim | null>;
  /** Records where an alert landed. */
  markPosted(alert: BudgetAlert, where: { channelId: string; messageId: string }, now: Date): Promise<void>;
  /** Gives an alert up (its day is over, or the platform keeps refusing it). */
  drop(alert: BudgetAlert): Promise<void>;
  /** Deletes alerts of days before `day`; returns how many. */
  purge(day: string): Promise<number>;
  /** Calls `listener` after an alert is queued, in this process; returns the unsubscribe function. */
  onQueued(listener: () => void): () => void;
}

interface AlertRow {
  platform: Platform;
  workspace_id: string;
  user_id: string;
  threshold: AlertThreshold;
  day: string;
  state: BudgetAlert['state'];
  details: string;
  attempts: number;
  owner: string | null;
}

/** The user id under which a tenant's balance alert of the day is guarded. */
const TENANT = '*';

const toAlert = (row: AlertRow): BudgetAlert => ({
  platform: row.platform,
  workspaceId: row.workspace_id,
  userId: row.user_id,
  threshold: row.threshold,
  day: row.day,
  state: row.state,
  details: JSON.parse(row.details) as AlertDetails,
  attempts: row.attempts,
});

/** Creates the budget alerts repository. */
export function createBudgetAlerts(db: Sql, options: BudgetAlertOptions = {}): BudgetAlerts {
  const insert = (
    q: Sql,
    key: { platform: string; workspaceId: string; userId: string; threshold: AlertThreshold; day: string },
    state: string,
    json: string,
    at: string,
  ) =>
    q.run(
      sql`INSERT INTO budget_alerts (platform, workspace_id, user_id, threshold, day, state, details, created_at)
          VALUES (${key.platform}, ${key.workspaceId}, ${key.userId}, ${key.threshold}, ${key.day}, ${state},
            ${json}, ${at})
          ON CONFLICT DO NOTHING`,
    );
  const byKey = (q: Sql, a: Pick<BudgetAlert, 'platform' | 'workspaceId' | 'userId' | 'threshold' | 'day'>) =>
    q.one<AlertRow>(
      sql`SELECT * FROM budget_alerts
          WHERE platform = ${a.platform} AND workspace_id = ${a.workspaceId} AND user_id = ${a.userId}
            AND threshold = ${a.threshold} AND day = ${a.day}`,
    );
  /** The WHERE condition naming one alert. */
  const whereKey = (a: BudgetAlert) =>
    sql`platform = ${a.platform} AND workspace_id = ${a.workspaceId} AND user_id = ${a.userId}
        AND threshold = ${a.threshold} AND day = ${a.day}`;
  const lockKey = (a: Pick<BudgetAlert, 'platform' | 'workspaceId' | 'userId' | 'day'>) =>
    JSON.stringify([a.platform, a.workspaceId, a.userId, a.day]);
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // A listener only wakes a sender; the alert stays queued for its next round.
      }
    }
  };

  const queueCap = (
    person: AlertPerson,
    threshold: '80' | '100',
    day: string,
    details: CapDetails,
    at: string,
  ) =>
    db.transaction(async (tx) => {
      const json = JSON.stringify(details);
      const { platform, workspaceId, userId } = person;
      // Another process queueing this person's other threshold of the day waits: 80% never follows 100%.
      await tx.lock(`budget-alerts:cap:${lockKey({ platform, workspaceId, userId, day })}`);
      // Spend counted lower later (a lost call settled for less) does not bring 80% back after 100%.
      if (
        threshold === '80' &&
        (await byKey(tx, { platform, workspaceId, userId, threshold: '100', day })) !== undefined
      )
        return false;
      const queued =
        (await insert(tx, { platform, workspaceId, userId, threshold, day }, 'pending', json, at)) > 0;
      // 80% is no news once 100% is told.
      if (queued && threshold === '100')
        await insert(tx, { platform, workspaceId, userId, threshold: '80', day }, 'skipped', json, at);
      return queued;
    });
  const queueBalance = (
    tenant: { platform: Platform; workspaceId: string },
    recipients: readonly string[],
    day: string,
    details: BalanceDetails,
    at: string,
  ) =>
    db.transaction(async (tx) => {
      const json = JSON.stringify(details);
      const { platform, workspaceId } = tenant;
      // The guard row's primary key: a process inserting it at the same time waits for this one, then inserts nothing.
      const guard = { platform, workspaceId, userId: TENANT, threshold: 'balance' as const, day };
      if ((await insert(tx, guard, 'guard', json, at)) === 0) return false;
      for (const userId of new Set(recipients)) {
        if (userId !== TENANT) await insert(tx, { ...guard, userId }, 'pending', json, at);
      }
      return true;
    });
  const claimPost = (alert: BudgetAlert, owner: string, alive: string) =>
    db.transaction(async (tx): Promise<AlertClaim | null> => {
      // The state read before the claim is the one the claim changes: another process claiming waits.
      await tx.lock(`budget-alerts:claim:${lockKey(alert)}:${alert.threshold}`);
      const before = await byKey(tx, alert);
      if (before === undefined) return null;
      const claimed = await tx.run(
        sql`UPDATE budget_alerts SET state = 'posting', owner = ${owner}, attempts = attempts + 1
            WHERE ${whereKey(alert)}
              AND (state = 'pending' OR (state = 'posting' AND (owner IS NULL OR owner = ${owner}
                OR owner NOT IN (SELECT id FROM scout_processes WHERE heartbeat_at >= ${alive}))))`,
      );
      if (claimed === 0) return null;
      return { mayHaveLanded: before.state === 'posting', attempts: before.attempts + 1 };
    });

  return {
    balanceAlert: options.balanceAlert ?? null,
    async queueCap(person, threshold, day, details, now) {
      const queued = await queueCap(person, threshold, day, details, now.toISOString());
      if (queued) notify();
      return queued;
    },
    async queueBalance(tenant, recipients, day, details, now) {
      const queued = await queueBalance(tenant, recipients, day, details, now.toISOString());
      if (queued) notify();
      return queued;
    },
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
    async unsent() {
      const rows = await db.all<AlertRow>(
        sql`SELECT * FROM budget_alerts WHERE state IN ('pending', 'posting') ORDER BY created_at, user_id, threshold`,
      );
      return rows.map(toAlert);
    },
    claim: (alert, owner, now) =>
      claimPost(alert, owner, new Date(now.getTime() - HEARTBEAT_STALE_MS).toISOString()),
    async markPosted(alert, where, now) {
      await db.run(
        sql`UPDATE budget_alerts SET state = 'posted', posted_at = ${now.toISOString()},
              posted_channel_id = ${where.channelId}, posted_message_id = ${where.messageId}
            WHERE ${whereKey(alert)}`,
      );
    },
    async drop(alert) {
      await db.run(
        sql`UPDATE budget_alerts SET state = 'dropped' WHERE ${whereKey(alert)} AND state <> 'posted'`,
      );
    },
    purge: (day) => db.run(sql`DELETE FROM budget_alerts WHERE day < ${day}`),
    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
