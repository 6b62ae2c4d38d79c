/**
 * Budget alerts: one private message per person and threshold (80% and 100% of their daily cap) per UTC day, and
 * one per tenant and day when its service balance is below the alert threshold, told to its admins. The row's
 * primary key is the once-guard, inserted ON CONFLICT DO NOTHING, so processes sharing the database queue an
 * alert once; a queued row goes pending → posting → posted, and a post is claimed by one process at a time.
 */
import type { Platform } from '../actor.js';
import type { Db } from './database.js';
import { HEARTBEAT_STALE_MS } from './processes.js';

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
  ): boolean;
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
  ): boolean;
  /** The platform admins the tenant is known to have: Scout admins and who named them, who connected its key, admins seen spending. */
  knownAdmins(tenant: { platform: Platform; workspaceId: string }): string[];
  /** Records that a platform admin was seen acting. */
  sawAdmin(person: AlertPerson, now: Date): void;
  /** Alerts not yet known to be posted, oldest first. */
  unsent(): BudgetAlert[];
  /**
   * Claims an alert's post for process `owner`: a pending one, or one left posting by this process or by a process
   * that is gone. Null when another live process has it, or it is posted or dropped.
   */
  claim(alert: BudgetAlert, owner: string, now: Date): AlertClaim | null;
  /** Records where an alert landed. */
  markPosted(alert: BudgetAlert, where: { channelId: string; messageId: string }, now: Date): void;
  /** Gives an alert up (its day is over, or the platform keeps refusing it). */
  drop(alert: BudgetAlert): void;
  /** Deletes alerts of days before `day`; returns how many. */
  purge(day: string): number;
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
export function createBudgetAlerts(db: Db, options: BudgetAlertOptions = {}): BudgetAlerts {
  const insert = db.prepare<[string, string, string, string, string, string, string, string]>(
    `INSERT INTO budget_alerts (platform, workspace_id, user_id, threshold, day, state, details, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const knownAdmins = db
    .prepare<[string, string, string, string, string, string, string, string], string>(
      `SELECT user_id FROM tenant_admins WHERE platform = ? AND workspace_id = ?
       UNION SELECT added_by FROM tenant_admins WHERE platform = ? AND workspace_id = ?
       UNION SELECT connected_by FROM tenant_accounts WHERE platform = ? AND workspace_id = ?
       UNION SELECT user_id FROM known_admins WHERE platform = ? AND workspace_id = ?`,
    )
    .pluck();
  const sawAdmin = db.prepare<[string, string, string, string]>(
    `INSERT INTO known_admins (platform, workspace_id, user_id, seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (platform, workspace_id, user_id) DO UPDATE SET seen_at = excluded.seen_at`,
  );
  const unsent = db.prepare<[], AlertRow>(
    `SELECT * FROM budget_alerts WHERE state IN ('pending', 'posting') ORDER BY created_at, user_id, threshold`,
  );
  const claim = db.prepare<[string, string, string, string, string, string, string, string]>(
    `UPDATE budget_alerts SET state = 'posting', owner = ?, attempts = attempts + 1
     WHERE platform = ? AND workspace_id = ? AND user_id = ? AND threshold = ? AND day = ?
       AND (state = 'pending' OR (state = 'posting' AND (owner IS NULL OR owner = ?
         OR owner NOT IN (SELECT id FROM scout_processes WHERE heartbeat_at >= ?))))`,
  );
  const byKey = db.prepare<[string, string, string, string, string], AlertRow>(
    `SELECT * FROM budget_alerts
     WHERE platform = ? AND workspace_id = ? AND user_id = ? AND threshold = ? AND day = ?`,
  );
  const posted = db.prepare<[string, string, string, string, string, string, string, string]>(
    `UPDATE budget_alerts SET state = 'posted', posted_at = ?, posted_channel_id = ?, posted_message_id = ?
     WHERE platform = ? AND workspace_id = ? AND user_id = ? AND threshold = ? AND day = ?`,
  );
  const dropRow = db.prepare<[string, string, string, string, string]>(
    `UPDATE budget_alerts SET state = 'dropped'
     WHERE platform = ? AND workspace_id = ? AND user_id = ? AND threshold = ? AND day = ? AND state <> 'posted'`,
  );
  const purge = db.prepare<[string]>('DELETE FROM budget_alerts WHERE day < ?');
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
  const keyOf = (a: BudgetAlert) => [a.platform, a.workspaceId, a.userId, a.threshold, a.day] as const;

  const queueCap = db.transaction(
    (person: AlertPerson, threshold: '80' | '100', day: string, details: CapDetails, at: string) => {
      const json = JSON.stringify(details);
      const { platform, workspaceId, userId } = person;
      // Spend counted lower later (a lost call settled for less) does not bring 80% back after 100%.
      if (threshold === '80' && byKey.get(platform, workspaceId, userId, '100', day) !== undefined)
        return false;
      const queued =
        insert.run(platform, workspaceId, userId, threshold, day, 'pending', json, at).changes > 0;
      // 80% is no news once 100% is told.
      if (queued && threshold === '100')
        insert.run(platform, workspaceId, userId, '80', day, 'skipped', json, at);
      return queued;
    },
  );
  const queueBalance = db.transaction(
    (
      tenant: { platform: Platform; workspaceId: string },
      recipients: readonly string[],
      day: string,
      details: BalanceDetails,
      at: string,
    ) => {
      const json = JSON.stringify(details);
      const { platform, workspaceId } = tenant;
      if (insert.run(platform, workspaceId, TENANT, 'balance', day, 'guard', json, at).changes === 0)
        return false;
      for (const userId of new Set(recipients)) {
        if (userId !== TENANT) insert.run(platform, workspaceId, userId, 'balance', day, 'pending', json, at);
      }
      return true;
    },
  );
  const claimPost = db.transaction((alert: BudgetAlert, owner: string, alive: string): AlertClaim | null => {
    const before = byKey.get(...keyOf(alert));
    if (before === undefined || claim.run(owner, ...keyOf(alert), owner, alive).changes === 0) return null;
    return { mayHaveLanded: before.state === 'posting', attempts: before.attempts + 1 };
  });

  return {
    balanceAlert: options.balanceAlert ?? null,
    queueCap(person, threshold, day, details, now) {
      const queued = queueCap(person, threshold, day, details, now.toISOString());
      if (queued) notify();
      return queued;
    },
    queueBalance(tenant, recipients, day, details, now) {
      const queued = queueBalance(tenant, recipients, day, details, now.toISOString());
      if (queued) notify();
      return queued;
    },
    knownAdmins(tenant) {
      const pair = [tenant.platform, tenant.workspaceId] as const;
      return knownAdmins.all(...pair, ...pair, ...pair, ...pair);
    },
    sawAdmin(person, now) {
      sawAdmin.run(person.platform, person.workspaceId, person.userId, now.toISOString());
    },
    unsent: () => unsent.all().map(toAlert),
    claim: (alert, owner, now) =>
      claimPost(alert, owner, new Date(now.getTime() - HEARTBEAT_STALE_MS).toISOString()),
    markPosted(alert, where, now) {
      posted.run(now.toISOString(), where.channelId, where.messageId, ...keyOf(alert));
    },
    drop(alert) {
      dropRow.run(...keyOf(alert));
    },
    purge: (day) => purge.run(day).changes,
    onQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
