/** Scout's persistent state: the database and one repository per table group. */

import type { ActionTokens } from './action-tokens.js';
import { createActionTokens } from './action-tokens.js';
import { type BudgetAlertOptions, type BudgetAlerts, createBudgetAlerts } from './budget-alerts.js';
import { type Db, openDatabase } from './database.js';
import type { Digests } from './digests.js';
import { createDigests } from './digests.js';
import type { Invocations } from './invocations.js';
import { createInvocations } from './invocations.js';
import type { Ledger } from './ledger.js';
import { createLedger } from './ledger.js';
import { createProcesses, type Processes } from './processes.js';
import type { ProfileCache } from './profiles.js';
import { createProfileCache } from './profiles.js';
import type { SearchSessions } from './search-sessions.js';
import { createSearchSessions } from './search-sessions.js';
import type { Settings } from './settings.js';
import { createSettings } from './settings.js';
import type { Subscriptions } from './subscriptions.js';
import { createSubscriptions } from './subscriptions.js';
import { createTenantStore, type TenantStore } from './tenants.js';

/** Every repository over one open database. */
export interface Store {
  readonly db: Db;
  readonly ledger: Ledger;
  readonly actions: ActionTokens;
  readonly invocations: Invocations;
  /** Creator profiles as the service client returns them (kept opaque here). */
  readonly profiles: ProfileCache<Record<string, unknown>>;
  readonly searches: SearchSessions;
  readonly settings: Settings;
  /** Reply notification subscriptions and their announcements. */
  readonly subscriptions: Subscriptions;
  /** Daily viral digests and their runs. */
  readonly digests: Digests;
  /** Tenants' service accounts, Scout admins and Slack installations. */
  readonly tenants: TenantStore;
  /** The Scout processes using the database, so claims of one that is gone are taken over. */
  readonly processes: Processes;
  /** Private alerts of spend near a daily cap and of a low service balance, each queued once. */
  readonly alerts: BudgetAlerts;
  close(): void;
}

/** Options of openStore. */
export type StoreOptions = BudgetAlertOptions;

/** Opens the database at `path` (':memory:' in tests) and builds the repositories. */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const db = openDatabase({ path });
  return {
    db,
    ledger: createLedger(db),
    actions: createActionTokens(db),
    invocations: createInvocations(db),
    profiles: createProfileCache(db),
    searches: createSearchSessions(db),
    settings: createSettings(db),
    subscriptions: createSubscriptions(db),
    digests: createDigests(db),
    tenants: createTenantStore(db),
    processes: createProcesses(db),
    alerts: createBudgetAlerts(db, options),
    close: () => db.close(),
  };
}
