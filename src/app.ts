/** Builds Scout's object graph (store, service client, commands, dispatcher), shared by main and the tests. */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { PROFILE_LINK_DOMAINS, parseProfileLink } from './commands/creators/profile-links.js';
import { createChatCore, type ProfileLinks } from './core/chat/create.js';
import type { ChatCore } from './core/chat/index.js';
import type { Clock } from './core/clock.js';
import { systemClock } from './core/clock.js';
import { createDispatcher, type Dispatcher } from './core/command/dispatcher.js';
import { createRegistry } from './core/command/registry.js';
import type { CommandFamily, CommandRegistry, CommandSettings } from './core/command/types.js';
import { createReservations, type Reservations } from './core/credits.js';
import { InternalError, SetupError } from './core/errors.js';
import { createHousekeeping } from './core/housekeeping.js';
import type { Logger } from './core/logger.js';
import { createMetrics, type Metrics } from './core/metrics.js';
import { createReadiness, type Readiness } from './core/readiness.js';
import type { ServiceClient } from './core/service/index.js';
import { schemaVersion } from './core/store/database.js';
import { openStore, type Store } from './core/store/index.js';
import { createLeases, type Leases } from './core/store/leases.js';
import { MIGRATIONS } from './core/store/migrations.js';
import {
  type AccountClientOptions,
  type AccountPool,
  createAccountPool,
  createSealer,
  createTenants,
  type Tenants,
} from './core/tenancy/index.js';

/** Creator profile links, which chat adapters unfurl with `creators link`. */
const PROFILE_LINKS: ProfileLinks = {
  domains: Object.values(PROFILE_LINK_DOMAINS),
  names: (url) => parseProfileLink(url) !== null,
  command: { family: 'creators', command: 'link', option: 'url' },
};

/** How often a process says it is alive (see store/processes.ts). */
const HEARTBEAT_MS = 10_000;

/** Whether a process of this host is running (a process of another user counts: it exists). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Defaults of the command settings that have no environment variable. No working message by default: the
 * process's entry point turns it on (main.ts), so an answer's messages do not depend on timing elsewhere.
 */
export const DEFAULT_SETTINGS: CommandSettings = {
  confirmAbove: 20,
  defaultDailyCap: null,
  balanceAlert: null,
  profileTtlMs: 7 * 86_400_000,
  elementTtlMs: 30 * 86_400_000,
  repeatWindowMs: 10_000,
  workingNoticeMs: null,
};

/** How the deployment finds its tenants' keys: one key for one team (default), or a key per tenant. */
export type TenancyOptions = { kind: 'single' } | { kind: 'multi'; encryptionKey: string };

/** What the app is built from. */
export interface AppOptions {
  /** The service's addresses and client settings; `apiKey` is the single team's key (unused in many-team mode). */
  service: AccountClientOptions & { apiKey?: string };
  /** Single-team by default. */
  tenancy?: TenancyOptions;
  /** Secret values the logger masks; each tenant's key is added to it when first used. */
  secrets?: Set<string>;
  /** The SQLite database file (':memory:' in tests); used when no `databaseUrl` is given. */
  databasePath: string;
  /** A PostgreSQL database (postgres://...), shared by every replica: used instead of `databasePath`. */
  databaseUrl?: string;
  /** A Redis (redis://...) through which replicas share each key's rate window; none: each process alone. */
  redisUrl?: string;
  /** How often a lease held by another replica is tried again (see store/leases.ts). */
  leaseCheckMs?: number;
  settings?: Partial<CommandSettings>;
  logger: Logger;
  clock?: Clock;
  /** The command families (src/commands FAMILIES in production). */
  families: readonly CommandFamily[];
  /** Who this process is, for the claims it holds; this host and pid by default (tests stand in for others). */
  process?: { host: string; pid: number };
}

/** The running graph. */
export interface App {
  readonly store: Store;
  /** Tenants and the service account each one uses. */
  readonly tenants: Tenants;
  /** The service clients, one per key. */
  readonly accounts: AccountPool;
  /** Secret values the logger masks (shared with it); adapters add the tokens they learn (Slack installations). */
  readonly secrets: Set<string>;
  /** The single team's service client (single-team mode only; tests and tools use it to set data up). */
  readonly service: ServiceClient;
  readonly registry: CommandRegistry;
  readonly dispatcher: Dispatcher;
  readonly settings: CommandSettings;
  readonly clock: Clock;
  /** Credits set aside for paid work in flight (commands and digests), so together they stay within caps. */
  readonly reservations: Reservations;
  /** This process in the database: claims and paid calls in flight name it, so a crash leaves nothing hanging. */
  readonly processId: string;
  /** The app's metrics registry and the hooks every layer reports through (served at `GET /metrics`). */
  readonly metrics: Metrics;
  /** What `GET /readyz` checks: the database and its storage here; each adapter adds its platform. */
  readonly readiness: Readiness;
  /** Work one replica does at a time (the background jobs): held here while this process holds its lease. */
  readonly leases: Leases;
  /** The port the chat adapters are given: all they reach of the app. */
  readonly chat: ChatCore;
  stop(): Promise<void>;
}

/** Why the database is not ready (closed, unreachable, or its migrations not all applied), else null. */
async function databaseProblem(store: Store): Promise<string | null> {
  if (!store.db.open) return 'database closed';
  const newest = await schemaVersion(store.db);
  const expected = MIGRATIONS.at(-1)?.version ?? 0;
  return newest === expected ? null : `database at schema version ${String(newest)}, expected ${expected}`;
}

/** Why the storage is not ready (ledger completions kept in memory, the disk being full), else null. */
function storageProblem(store: Store): string | null {
  const waiting = store.ledger.unwritten();
  return waiting === 0 ? null : `storage full: ${waiting} ledger completion(s) waiting to be written`;
}

/** Creates the app; stop() releases the service client's limiter and closes the database. */
export async function createApp(options: AppOptions): Promise<App> {
  const clock = options.clock ?? systemClock;
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const { apiKey } = options.service;
  const tenancy = options.tenancy ?? { kind: 'single' };
  if (tenancy.kind === 'single' && apiKey === undefined) {
    throw new SetupError('Single-team mode needs the service key (service.apiKey).');
  }
  const location =
    options.databaseUrl === undefined ? { path: options.databasePath } : { url: options.databaseUrl };
  const store = await openStore(location, { balanceAlert: settings.balanceAlert });
  const leases = createLeases(location, {
    logger: options.logger,
    ...(options.leaseCheckMs === undefined ? {} : { checkMs: options.leaseCheckMs }),
  });
  try {
    return await assemble(options, store, leases, clock, settings);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

async function assemble(
  options: AppOptions,
  store: Store,
  leases: Leases,
  clock: Clock,
  settings: CommandSettings,
): Promise<App> {
  const metrics = createMetrics({ unwritten: () => store.ledger.unwritten() });
  store.ledger.onCharge((charge) => metrics.charged(charge.operation, charge.state, charge.credits));
  const readiness = createReadiness();
  readiness.add('database', () => databaseProblem(store));
  readiness.add('storage', () => storageProblem(store));
  const { apiKey, ...clientOptions } = options.service;
  const secrets = options.secrets ?? new Set<string>();
  // ioredis is loaded only by a deployment that shares its rate windows through Redis.
  const shared =
    options.redisUrl === undefined
      ? undefined
      : (await import('./core/service/redis-window.js')).redisWindows(options.redisUrl);
  if (shared !== undefined) readiness.add('redis', () => shared.problem());
  const accounts = createAccountPool({ ...clientOptions, logger: options.logger, metrics }, secrets, shared);
  const tenancy = options.tenancy ?? { kind: 'single' };
  const sealer = tenancy.kind === 'multi' ? createSealer(tenancy.encryptionKey) : null;
  const tenants = await createTenants({
    mode: sealer === null ? { kind: 'single', apiKey: apiKey as string } : { kind: 'multi', sealer },
    store,
    pool: accounts,
    clock,
    logger: options.logger,
  });
  // This process, registered with a heartbeat: claims of earlier runs on this host that are gone are released now.
  const self = {
    id: randomBytes(9).toString('base64url'),
    host: options.process?.host ?? hostname(),
    pid: options.process?.pid ?? process.pid,
  };
  const released = await store.processes.register(self, isRunning, clock.now());
  if (released > 0) options.logger.info({ released }, 'Released the work of Scout processes that are gone.');
  const beat = async () => {
    try {
      await store.processes.heartbeat(self, clock.now());
    } catch (error) {
      // A busy or failing database must not end the process; a missed beat only lets claims go sooner.
      options.logger.warn({ err: error }, 'Could not record this process’s heartbeat.');
    }
    // Ledger completions kept while the disk was full are written once there is room, even with no new paid call
    // (which would write them too): until then /readyz reports the storage full.
    if (store.ledger.unwritten() > 0) {
      try {
        await store.ledger.retryUnwritten();
      } catch (error) {
        options.logger.warn({ err: error }, 'Could not write the ledger completions kept in memory.');
      }
    }
  };
  const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
  heartbeat.unref();
  const registry = createRegistry(options.families);
  const reservations = createReservations({ store, clock, owner: self.id });
  const dispatcher = createDispatcher({
    registry,
    store,
    tenants,
    clock,
    logger: options.logger,
    settings,
    reservations,
    owner: self.id,
    metrics,
  });
  const housekeeping = createHousekeeping(
    store,
    clock,
    {
      invocationsMs: 86_400_000,
      expiredElementsMs: settings.elementTtlMs,
      profilesMs: settings.profileTtlMs,
    },
    options.logger,
  );
  housekeeping.start();
  const chat = createChatCore({
    dispatcher,
    registry,
    store,
    tenants,
    clock,
    settings,
    metrics,
    readiness,
    secrets,
    logger: options.logger,
    sealer,
    profileLinks: PROFILE_LINKS,
  });
  return {
    store,
    tenants,
    accounts,
    secrets,
    get service(): ServiceClient {
      if (tenancy.kind !== 'single' || apiKey === undefined) {
        throw new InternalError(
          'In many-team mode each tenant has its own service client: use tenants.access().',
        );
      }
      return accounts.forKey(apiKey).service;
    },
    registry,
    dispatcher,
    settings,
    clock,
    reservations,
    processId: self.id,
    metrics,
    readiness,
    leases,
    chat,
    async stop() {
      await leases.close();
      housekeeping.stop();
      clearInterval(heartbeat);
      try {
        await store.processes.unregister(self.id, clock.now());
      } finally {
        await accounts.stop();
        await store.close();
      }
    },
  };
}
