/**
 * Tenants' own rows: the service account each tenant connected (sealed), the Scout admins it named, the Slack
 * installations made through OAuth (sealed), and what to forget when a tenant leaves.
 */
import type { Platform } from '../actor.js';
import type { Db } from './database.js';

/** A Slack workspace, Discord server or the local terminal. */
export interface TenantRef {
  platform: Platform;
  workspaceId: string;
}

/** A stored connection of a tenant to a service account. */
export interface AccountRow {
  tenant: TenantRef;
  accountId: string;
  keySealed: string;
  keyHint: string;
  connectedBy: string;
  connectedAt: Date;
}

/** A Scout admin named by a workspace admin. */
export interface AdminRow {
  userId: string;
  addedBy: string;
  addedAt: Date;
}

/** Repository of tenant rows. */
export interface TenantStore {
  account(tenant: TenantRef): AccountRow | null;
  /** Every stored connection (for the background jobs). */
  accounts(): AccountRow[];
  putAccount(row: AccountRow): void;
  /** Removes the tenant's connection; false when there was none. */
  removeAccount(tenant: TenantRef): boolean;
  isAdmin(tenant: TenantRef, userId: string): boolean;
  admins(tenant: TenantRef): AdminRow[];
  /** Adds a Scout admin; false when the person already was one. */
  addAdmin(tenant: TenantRef, userId: string, addedBy: string, now: Date): boolean;
  removeAdmin(tenant: TenantRef, userId: string): boolean;
  slackInstallation(id: string): string | null;
  putSlackInstallation(id: string, sealed: string, now: Date): void;
  removeSlackInstallation(id: string): boolean;
  /**
   * Forgets a tenant that left: its key, its Scout admins, its channel subscriptions and digests (removed, so the
   * jobs stop). Ledger rows stay for accounting.
   */
  forget(tenant: TenantRef, now: Date): void;
  /**
   * After the tenant's service account changed: drops the reply notifications queued with the old account and
   * makes its channel subscriptions start from now, so nothing of another account is announced.
   */
  restartSubscriptions(tenant: TenantRef, now: Date): void;
  /** Gives rows kept before tenants existed (profiles, seen replies, poll state) to the single-team account. */
  adoptLegacy(accountId: string): void;
  /** Deletes those rows where no single account owns them (many-team mode). */
  dropLegacy(): void;
}

interface AccountDbRow {
  platform: Platform;
  workspace_id: string;
  account_id: string;
  key_sealed: string;
  key_hint: string;
  connected_by: string;
  connected_at: string;
}

const toAccount = (row: AccountDbRow): AccountRow => ({
  tenant: { platform: row.platform, workspaceId: row.workspace_id },
  accountId: row.account_id,
  keySealed: row.key_sealed,
  keyHint: row.key_hint,
  connectedBy: row.connected_by,
  connectedAt: new Date(row.connected_at),
});

/** Creates the tenant repository. */
export function createTenantStore(db: Db): TenantStore {
  const getAccount = db.prepare<[string, string], AccountDbRow>(
    'SELECT * FROM tenant_accounts WHERE platform = ? AND workspace_id = ?',
  );
  const allAccounts = db.prepare<[], AccountDbRow>(
    'SELECT * FROM tenant_accounts ORDER BY platform, workspace_id',
  );
  const upsertAccount = db.prepare(`INSERT INTO tenant_accounts
    (platform, workspace_id, account_id, key_sealed, key_hint, connected_by, connected_at)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id) DO UPDATE SET
    account_id = excluded.account_id, key_sealed = excluded.key_sealed, key_hint = excluded.key_hint,
    connected_by = excluded.connected_by, connected_at = excluded.connected_at`);
  const deleteAccount = db.prepare('DELETE FROM tenant_accounts WHERE platform = ? AND workspace_id = ?');
  const isAdmin = db
    .prepare<[string, string, string], number>(
      'SELECT 1 FROM tenant_admins WHERE platform = ? AND workspace_id = ? AND user_id = ?',
    )
    .pluck();
  const listAdmins = db.prepare<[string, string], { user_id: string; added_by: string; added_at: string }>(
    'SELECT user_id, added_by, added_at FROM tenant_admins WHERE platform = ? AND workspace_id = ? ORDER BY added_at',
  );
  const insertAdmin = db.prepare(
    'INSERT OR IGNORE INTO tenant_admins (platform, workspace_id, user_id, added_by, added_at) VALUES (?, ?, ?, ?, ?)',
  );
  const deleteAdmin = db.prepare(
    'DELETE FROM tenant_admins WHERE platform = ? AND workspace_id = ? AND user_id = ?',
  );
  const deleteAdmins = db.prepare('DELETE FROM tenant_admins WHERE platform = ? AND workspace_id = ?');
  const getInstall = db
    .prepare<[string], string>('SELECT sealed FROM slack_installations WHERE id = ?')
    .pluck();
  const putInstall = db.prepare(`INSERT INTO slack_installations (id, sealed, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`);
  const deleteInstall = db.prepare('DELETE FROM slack_installations WHERE id = ?');
  const stopSubscriptions = db.prepare(
    'UPDATE reply_subscriptions SET removed_at = ? WHERE platform = ? AND workspace_id = ? AND removed_at IS NULL',
  );
  const stopDigests = db.prepare(
    'UPDATE digests SET removed_at = ? WHERE platform = ? AND workspace_id = ? AND removed_at IS NULL',
  );
  const forget = db.transaction((tenant: TenantRef, at: string) => {
    deleteAccount.run(tenant.platform, tenant.workspaceId);
    deleteAdmins.run(tenant.platform, tenant.workspaceId);
    stopSubscriptions.run(at, tenant.platform, tenant.workspaceId);
    stopDigests.run(at, tenant.platform, tenant.workspaceId);
  });
  const dropQueued =
    db.prepare(`DELETE FROM reply_announcements WHERE state <> 'posted' AND subscription_id IN
    (SELECT id FROM reply_subscriptions WHERE platform = ? AND workspace_id = ?)`);
  const restartFrom = db.prepare(
    'UPDATE reply_subscriptions SET created_at = ? WHERE platform = ? AND workspace_id = ? AND removed_at IS NULL',
  );
  const restart = db.transaction((tenant: TenantRef, at: string) => {
    dropQueued.run(tenant.platform, tenant.workspaceId);
    restartFrom.run(at, tenant.platform, tenant.workspaceId);
  });
  const dropLegacy = db.transaction(() => {
    db.prepare(`DELETE FROM creator_profiles WHERE account_id = 'legacy'`).run();
    db.prepare(`DELETE FROM reply_seen WHERE account_id = 'legacy'`).run();
    db.prepare(`DELETE FROM reply_poll_state WHERE scope = 'inbound'`).run();
  });
  const adopt = db.transaction((accountId: string) => {
    db.prepare(`UPDATE OR IGNORE creator_profiles SET account_id = ? WHERE account_id = 'legacy'`).run(
      accountId,
    );
    db.prepare(`UPDATE OR IGNORE reply_seen SET account_id = ? WHERE account_id = 'legacy'`).run(accountId);
    db.prepare(`UPDATE OR IGNORE reply_poll_state SET scope = ? WHERE scope = 'inbound'`).run(
      `inbound:${accountId}`,
    );
    // What could not move (the account already had it) goes.
    dropLegacy();
  });
  return {
    account(tenant) {
      const row = getAccount.get(tenant.platform, tenant.workspaceId);
      return row === undefined ? null : toAccount(row);
    },
    accounts: () => allAccounts.all().map(toAccount),
    putAccount(row) {
      upsertAccount.run(
        row.tenant.platform,
        row.tenant.workspaceId,
        row.accountId,
        row.keySealed,
        row.keyHint,
        row.connectedBy,
        row.connectedAt.toISOString(),
      );
    },
    removeAccount: (tenant) => deleteAccount.run(tenant.platform, tenant.workspaceId).changes > 0,
    isAdmin: (tenant, userId) => isAdmin.get(tenant.platform, tenant.workspaceId, userId) !== undefined,
    admins: (tenant) =>
      listAdmins.all(tenant.platform, tenant.workspaceId).map((row) => ({
        userId: row.user_id,
        addedBy: row.added_by,
        addedAt: new Date(row.added_at),
      })),
    addAdmin: (tenant, userId, addedBy, now) =>
      insertAdmin.run(tenant.platform, tenant.workspaceId, userId, addedBy, now.toISOString()).changes > 0,
    removeAdmin: (tenant, userId) => deleteAdmin.run(tenant.platform, tenant.workspaceId, userId).changes > 0,
    slackInstallation: (id) => getInstall.get(id) ?? null,
    putSlackInstallation(id, sealed, now) {
      putInstall.run(id, sealed, now.toISOString());
    },
    removeSlackInstallation: (id) => deleteInstall.run(id).changes > 0,
    forget(tenant, now) {
      forget(tenant, now.toISOString());
    },
    restartSubscriptions(tenant, now) {
      restart(tenant, now.toISOString());
    },
    adoptLegacy(accountId) {
      adopt(accountId);
    },
    dropLegacy() {
      dropLegacy();
    },
  };
}
