/**
 * Tenants: every Slack workspace (or Enterprise Grid org), Discord server and the local terminal is a tenant,
 * bound to one service account. In single-team mode the deployment's key serves the tenants it was set up for
 * (the terminal, the Slack workspace of the bot token, the listed Discord servers) and nobody else; in many-team
 * mode any installed workspace may connect its own key with /scout connect, kept sealed in the database.
 */
import type { Platform } from '../actor.js';
import type { Clock } from '../clock.js';
import { InternalError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { TenantRef } from '../store/tenants.js';
import { type AccountPool, keyHint, type ServiceAccount } from './accounts.js';
import { PermissionError } from './roles.js';
import type { Sealer } from './seal.js';

export type { TenantRef } from '../store/tenants.js';

/** How a deployment finds its tenants' keys. */
export type TenancyMode =
  | { kind: 'single'; apiKey: string }
  | {
      kind: 'multi';
      sealer: Sealer;
    };

/** What a tenant may do now. */
export type Access =
  | { status: 'ok'; account: ServiceAccount }
  /** An installed tenant that has not connected a service account yet, or whose stored key cannot be opened. */
  | { status: 'not-connected'; unreadable?: boolean }
  /** Not a tenant of this deployment: refused before anything else happens. */
  | { status: 'outside' };

/** What /scout connect shows. */
export interface Connection {
  accountId: string;
  hint: string;
  /** The person who connected it; null when the key comes from the deployment (SCOUT_API_KEY). */
  connectedBy: string | null;
  connectedAt: Date | null;
}

/** The tenant directory. */
export interface Tenants {
  readonly mode: 'single' | 'multi';
  /** Single-team mode: serve this tenant with the deployment's key (the adapters name theirs at start). */
  serve(tenant: TenantRef): void;
  /** Whether the tenant belongs to this deployment at all (it may still lack a key in many-team mode). */
  isServed(tenant: TenantRef): boolean;
  access(tenant: TenantRef): Promise<Access>;
  connection(tenant: TenantRef): Promise<Connection | null>;
  /**
   * Checks `apiKey` with a free call and binds it to the tenant (many-team mode only). Resolves with the balance the
   * service reported; rejects with the service's error (an invalid key) and stores nothing then.
   */
  connect(
    tenant: TenantRef,
    apiKey: string,
    by: string,
  ): Promise<{ account: ServiceAccount; balance: number | null }>;
  /** Removes the tenant's key; false when none was connected. */
  disconnect(tenant: TenantRef): Promise<boolean>;
  /** The tenant left (uninstalled, removed the bot): forget its key and admins, stop its jobs. */
  leave(tenant: TenantRef): Promise<void>;
  /** Whether the person is a Scout admin named in this tenant. */
  isScoutAdmin(tenant: TenantRef, userId: string): Promise<boolean>;
}

/** Options of createTenants. */
export interface TenantsOptions {
  mode: TenancyMode;
  store: Store;
  pool: AccountPool;
  clock: Clock;
  logger: Logger;
}

const tenantKey = (tenant: TenantRef) => `${tenant.platform}:${tenant.workspaceId}`;

/** Attempts to connect a key a tenant may make in CONNECT_WINDOW_MS: each one is a request to the service. */
const CONNECT_ATTEMPTS = 5;
const CONNECT_WINDOW_MS = 10 * 60_000;

/** A Discord DM or an interaction without a workspace is never a tenant. */
const isWorkspace = (tenant: TenantRef) =>
  tenant.workspaceId !== '' && !(tenant.platform === 'discord' && tenant.workspaceId.startsWith('dm-'));

/** Creates the tenant directory; rows kept from before tenants existed are given to the one key there is. */
export async function createTenants(options: TenantsOptions): Promise<Tenants> {
  const { mode, store, pool, clock, logger } = options;
  const served = new Set<string>(['terminal:local']);
  // Opened keys by tenant and sealed text: a row changed by another replica is opened again, an unchanged one is
  // not, and a sealed value copied into another tenant's row is opened (and refused) for that tenant.
  const opened = new Map<string, ServiceAccount>();
  const unreadable = new Set<string>();
  const attempts = new Map<string, number[]>();
  // How many times each tenant left: a connect that was checking its key while the tenant left stores nothing.
  const departures = new Map<string, number>();

  /** Forgets the opened keys of a tenant whose row changed or went. */
  const forgetOpened = (tenant: TenantRef) => {
    const prefix = `${tenantKey(tenant)}|`;
    for (const key of opened.keys()) if (key.startsWith(prefix)) opened.delete(key);
    for (const key of unreadable) if (key.startsWith(prefix)) unreadable.delete(key);
  };

  const single = mode.kind === 'single' ? pool.forKey(mode.apiKey) : null;
  // Rows kept before tenants existed belong to the one key there was; with many keys, to none.
  if (single !== null) await store.tenants.adoptLegacy(single.id);
  else await store.tenants.dropLegacy();

  const isServed = (tenant: TenantRef): boolean => {
    if (!isWorkspace(tenant)) return false;
    return mode.kind === 'multi' || served.has(tenantKey(tenant));
  };

  const stored = async (tenant: TenantRef): Promise<ServiceAccount | 'none' | 'unreadable'> => {
    if (mode.kind !== 'multi') return 'none';
    const row = await store.tenants.account(tenant);
    if (row === null) return 'none';
    const cacheKey = `${tenantKey(tenant)}|${row.keySealed}`;
    const cached = opened.get(cacheKey);
    if (cached !== undefined) return cached;
    if (unreadable.has(cacheKey)) return 'unreadable';
    try {
      const account = pool.forKey(mode.sealer.open(row.keySealed, tenantKey(tenant)));
      opened.set(cacheKey, account);
      return account;
    } catch (error) {
      // Said once per stored value; the tenant's admins are told to connect the key again.
      unreadable.add(cacheKey);
      logger.error({ err: error, tenant: tenantKey(tenant) }, 'A tenant’s service key could not be opened.');
      return 'unreadable';
    }
  };

  /** Counts an attempt to connect a key; refuses past CONNECT_ATTEMPTS in the window. */
  const countAttempt = (tenant: TenantRef) => {
    const now = clock.now().getTime();
    const recent = (attempts.get(tenantKey(tenant)) ?? []).filter((at) => now - at < CONNECT_WINDOW_MS);
    if (recent.length >= CONNECT_ATTEMPTS) {
      const wait = Math.ceil((CONNECT_WINDOW_MS - (now - (recent[0] ?? now))) / 60_000);
      throw new PermissionError(
        `Too many attempts to connect a key here: try again in ${wait} minute${wait === 1 ? '' : 's'}.`,
      );
    }
    recent.push(now);
    attempts.set(tenantKey(tenant), recent);
  };

  return {
    mode: mode.kind,
    serve(tenant) {
      served.add(tenantKey(tenant));
    },
    isServed,
    async access(tenant) {
      if (!isServed(tenant)) return { status: 'outside' };
      if (single !== null) return { status: 'ok', account: single };
      const account = await stored(tenant);
      if (account === 'none') return { status: 'not-connected' };
      if (account === 'unreadable') return { status: 'not-connected', unreadable: true };
      return { status: 'ok', account };
    },
    async connection(tenant) {
      if (!isServed(tenant)) return null;
      if (single !== null)
        return { accountId: single.id, hint: single.hint, connectedBy: null, connectedAt: null };
      const row = await store.tenants.account(tenant);
      return row === null
        ? null
        : {
            accountId: row.accountId,
            hint: row.keyHint,
            connectedBy: row.connectedBy,
            connectedAt: row.connectedAt,
          };
    },
    async connect(tenant, apiKey, by) {
      if (mode.kind !== 'multi') throw new InternalError('Keys are connected in many-team mode only.');
      countAttempt(tenant);
      const left = departures.get(tenantKey(tenant)) ?? 0;
      const balance = await pool.check(apiKey);
      if ((departures.get(tenantKey(tenant)) ?? 0) !== left) {
        throw new PermissionError(
          'Scout was removed from this workspace while the key was being checked: nothing was stored.',
        );
      }
      const previous = await store.tenants.account(tenant);
      const account = pool.forKey(apiKey);
      await store.tenants.putAccount({
        tenant,
        accountId: account.id,
        keySealed: mode.sealer.seal(apiKey, tenantKey(tenant)),
        keyHint: keyHint(apiKey),
        connectedBy: by,
        connectedAt: clock.now(),
      });
      forgetOpened(tenant);
      // Another account's replies are not this one's: notifications start again from now.
      if (previous?.accountId !== account.id) await store.tenants.restartSubscriptions(tenant, clock.now());
      logger.info({ tenant: tenantKey(tenant), account: account.id }, 'Service account connected.');
      return { account, balance };
    },
    async disconnect(tenant) {
      const removed = await store.tenants.removeAccount(tenant);
      forgetOpened(tenant);
      if (removed) {
        await store.tenants.restartSubscriptions(tenant, clock.now());
        logger.info({ tenant: tenantKey(tenant) }, 'Service account disconnected.');
      }
      return removed;
    },
    async leave(tenant) {
      departures.set(tenantKey(tenant), (departures.get(tenantKey(tenant)) ?? 0) + 1);
      await store.tenants.forget(tenant, clock.now());
      forgetOpened(tenant);
      served.delete(tenantKey(tenant));
      logger.info({ tenant: tenantKey(tenant) }, 'Tenant left: its key is forgotten and its jobs stopped.');
    },
    isScoutAdmin: (tenant, userId) => store.tenants.isAdmin(tenant, userId),
  };
}

/** The tenant an actor acts in. */
export function tenantOf(actor: { platform: Platform; workspaceId: string }): TenantRef {
  return { platform: actor.platform, workspaceId: actor.workspaceId };
}
