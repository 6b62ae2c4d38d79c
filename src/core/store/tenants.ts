/**
 * Tenants' own rows: the service account each tenant connected (sealed), the Scout admins it named, the Slack
 * installations made through OAuth (sealed), and what to forget when a tenant leaves.
 */
import type { Platform } from '../actor.js';
import { createOutbox } from './outbox.js';
import { type Sql, sql } from './sql.js';

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
  account(tenant: TenantRef): Promise<AccountRow | null>;
  /** Every stored connection (for the background jobs). */
  accounts(): Promise<AccountRow[]>;
  putAccount(row: AccountRow): Promise<void>;
  /** Removes the tenant's connection; false when there was none. */
  removeAccount(tenant: TenantRef): Promise<boolean>;
  isAdmin(tenant: TenantRef, userId: string): Promise<boolean>;
  admins(tenant: TenantRef): Promise<AdminRow[]>;
  /** Adds a Scout admin; false when the person already was one. */
  addAdmin(tenant: TenantRef, userId: string, addedBy: string, now: Date): Promise<boolean>;
  removeAdmin(tenant: TenantRef, userId: string): Promise<boolean>;
  slackInstallation(id: string): Promise<string | null>;
  putSlackInstallation(id: string, sealed: string, now: Date): Promise<void>;
  removeSlackInstallation(id: string): Promise<boolean>;
  /**
   * Forgets a tenant that left: its key, its Scout admins, its channel subscriptions and digests (removed, so the
   * jobs stop). Ledger rows stay for accounting.
   */
  forget(tenant: TenantRef, now: Date): Promise<void>;
  /**
   * After the tenant's service account changed: drops the reply notifications queued with the old account and
   * makes its channel subscriptions start from now, so nothing of another account is announced.
   */
  restartSubscriptions(tenant: TenantRef, now: Date): Promise<void>;
  /** Gives rows kept before tenants existed (profiles, seen replies, poll state) to the single-team account. */
  adoptLegacy(accountId: string): Promise<void>;
  /** Deletes those rows where no single account owns them (many-team mode). */
  dropLegacy(): Promise<void>;
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
export function createTenantStore(db: Sql): TenantStore {
  const deleteAccount = (tx: Sql, tenant: TenantRef) =>
    tx.run(
      sql`DELETE FROM tenant_accounts WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId}`,
    );
  const dropLegacy = async (tx: Sql) => {
    await tx.run(sql`DELETE FROM creator_profiles WHERE account_id = 'legacy'`);
    await tx.run(sql`DELETE FROM reply_seen WHERE account_id = 'legacy'`);
    await tx.run(sql`DELETE FROM reply_poll_state WHERE scope = 'inbound'`);
  };
  return {
    async account(tenant) {
      const row = await db.one<AccountDbRow>(
        sql`SELECT * FROM tenant_accounts WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId}`,
      );
      return row === undefined ? null : toAccount(row);
    },
    accounts: async () =>
      (await db.all<AccountDbRow>(sql`SELECT * FROM tenant_accounts ORDER BY platform, workspace_id`)).map(
        toAccount,
      ),
    async putAccount(row) {
      await db.run(
        sql`INSERT INTO tenant_accounts
            (platform, workspace_id, account_id, key_sealed, key_hint, connected_by, connected_at)
            VALUES (${row.tenant.platform}, ${row.tenant.workspaceId}, ${row.accountId}, ${row.keySealed},
              ${row.keyHint}, ${row.connectedBy}, ${row.connectedAt.toISOString()})
            ON CONFLICT (platform, workspace_id) DO UPDATE SET
              account_id = excluded.account_id, key_sealed = excluded.key_sealed, key_hint = excluded.key_hint,
              connected_by = excluded.connected_by, connected_at = excluded.connected_at`,
      );
    },
    removeAccount: async (tenant) => (await deleteAccount(db, tenant)) > 0,
    isAdmin: async (tenant, userId) =>
      (await db.one(
        sql`SELECT 1 AS "one" FROM tenant_admins
            WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} AND user_id = ${userId}`,
      )) !== undefined,
    admins: async (tenant) =>
      (
        await db.all<{ user_id: string; added_by: string; added_at: string }>(
          sql`SELECT user_id, added_by, added_at FROM tenant_admins
              WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} ORDER BY added_at`,
        )
      ).map((row) => ({
        userId: row.user_id,
        addedBy: row.added_by,
        addedAt: new Date(row.added_at),
      })),
    addAdmin: async (tenant, userId, addedBy, now) =>
      (await db.run(
        sql`INSERT INTO tenant_admins (platform, workspace_id, user_id, added_by, added_at)
            VALUES (${tenant.platform}, ${tenant.workspaceId}, ${userId}, ${addedBy}, ${now.toISOString()})
            ON CONFLICT (platform, workspace_id, user_id) DO NOTHING`,
      )) > 0,
    removeAdmin: async (tenant, userId) =>
      (await db.run(
        sql`DELETE FROM tenant_admins
            WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} AND user_id = ${userId}`,
      )) > 0,
    async slackInstallation(id) {
      const row = await db.one<{ sealed: string }>(
        sql`SELECT sealed FROM slack_installations WHERE id = ${id}`,
      );
      return row?.sealed ?? null;
    },
    async putSlackInstallation(id, sealed, now) {
      await db.run(
        sql`INSERT INTO slack_installations (id, sealed, updated_at) VALUES (${id}, ${sealed}, ${now.toISOString()})
            ON CONFLICT (id) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
      );
    },
    removeSlackInstallation: async (id) =>
      (await db.run(sql`DELETE FROM slack_installations WHERE id = ${id}`)) > 0,
    async forget(tenant, now) {
      const at = now.toISOString();
      await db.transaction(async (tx) => {
        await deleteAccount(tx, tenant);
        await tx.run(
          sql`DELETE FROM tenant_admins WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId}`,
        );
        await tx.run(
          sql`UPDATE reply_subscriptions SET removed_at = ${at}
              WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} AND removed_at IS NULL`,
        );
        await tx.run(
          sql`UPDATE digests SET removed_at = ${at}
              WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} AND removed_at IS NULL`,
        );
      });
    },
    async restartSubscriptions(tenant, now) {
      const at = now.toISOString();
      await db.transaction(async (tx) => {
        await createOutbox(tx).forget('reply', tenant);
        await tx.run(
          sql`UPDATE reply_subscriptions SET created_at = ${at}
              WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId} AND removed_at IS NULL`,
        );
      });
    },
    async adoptLegacy(accountId) {
      await db.transaction(async (tx) => {
        await tx.lock('tenants:legacy');
        // Copies, skipping what the account already has (UPDATE OR IGNORE, on both engines and whatever another
        // process writes meanwhile); the legacy rows then go with dropLegacy.
        await tx.run(
          sql`INSERT INTO creator_profiles (account_id, user_id, profile, fetched_at)
              SELECT CAST(${accountId} AS TEXT), user_id, profile, fetched_at FROM creator_profiles
              WHERE account_id = 'legacy'
              ON CONFLICT DO NOTHING`,
        );
        await tx.run(
          sql`INSERT INTO reply_seen (account_id, message_id, seen_at)
              SELECT CAST(${accountId} AS TEXT), message_id, seen_at FROM reply_seen
              WHERE account_id = 'legacy'
              ON CONFLICT DO NOTHING`,
        );
        await tx.run(
          sql`INSERT INTO reply_poll_state (scope, inbound_total, checked_at)
              SELECT CAST(${`inbound:${accountId}`} AS TEXT), inbound_total, checked_at FROM reply_poll_state
              WHERE scope = 'inbound'
              ON CONFLICT DO NOTHING`,
        );
        // What could not move (the account already had it) goes.
        await dropLegacy(tx);
      });
    },
    async dropLegacy() {
      await db.transaction(async (tx) => {
        await tx.lock('tenants:legacy');
        await dropLegacy(tx);
      });
    },
  };
}
