/** Scout's persistent state: the database and one repository per table group. */
import type { Actor } from '../actor.js';

import type { ActionTokens } from './action-tokens.js';
import { createActionTokens } from './action-tokens.js';
import { type BudgetAlertOptions, type BudgetAlerts, createBudgetAlerts } from './budget-alerts.js';
import { type Conversations, createConversations } from './conversations.js';
import { type DatabaseLocation, type Db, openDatabase } from './database.js';
import type { Digests } from './digests.js';
import { createDigests } from './digests.js';
import type { Invocations } from './invocations.js';
import { createInvocations } from './invocations.js';
import type { Ledger } from './ledger.js';
import { createLedger } from './ledger.js';
import { createPersonNotices, type PersonNotices } from './notices.js';
import { createOutbox, type Outbox } from './outbox.js';
import { createProcesses, type Processes } from './processes.js';
import { createProfileHandles, type ProfileHandles } from './profile-handles.js';
import type { ProfileCache } from './profiles.js';
import { createProfileCache } from './profiles.js';
import { createReservationBook, type ReservationBook } from './reservations.js';
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
  /** The same profiles, read by platform and handle. */
  readonly handles: ProfileHandles;
  readonly searches: SearchSessions;
  readonly settings: Settings;
  /** Reply notification subscriptions and the replies seen. */
  readonly subscriptions: Subscriptions;
  /** Daily viral digests and the posts they showed. */
  readonly digests: Digests;
  /** Every post made unasked (digests, reply notifications, budget alerts), each posted once. */
  readonly outbox: Outbox;
  /** Tenants' service accounts, Scout admins and Slack installations. */
  readonly tenants: TenantStore;
  /** The Scout processes using the database, so claims of one that is gone are taken over. */
  readonly processes: Processes;
  /** Private alerts of spend near a daily cap and of a low service balance, each queued once. */
  readonly alerts: BudgetAlerts;
  /** Credits set aside for paid work in flight, per person, by every process. */
  readonly reservations: ReservationBook;
  /** Notices told to a person at most once a day (a trial account). */
  readonly notices: PersonNotices;
  /** The last answer of each conversation (a DM, a thread), which a follow-up refines or acts on. */
  readonly conversations: Conversations;
  /**
   * Runs `work` in one transaction holding the person's lock, shared by every process on the database: a cap check
   * and what it lets through (a reservation, a paid call's intent) are one step, so two commands of one person on
   * two replicas cannot pass the cap together. `work` must use the repositories it is given, bound to the
   * transaction, and nothing else of the store.
   */
  forPerson<T>(person: Person, work: (scope: PersonScope) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

type Person = Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;

/** The repositories a person's step (Store.forPerson) works with, bound to its transaction. */
export interface PersonScope {
  readonly ledger: Pick<Ledger, 'spent' | 'intend'>;
  readonly settings: Pick<Settings, 'dailyCap'>;
  readonly reservations: ReservationBook;
}

/** Options of openStore. */
export type StoreOptions = BudgetAlertOptions;

/**
 * Opens the database (a SQLite file path, ':memory:' in tests, or a PostgreSQL URL), brings its schema up to date and
 * builds the repositories.
 */
export async function openStore(location: DatabaseLocation, options: StoreOptions = {}): Promise<Store> {
  const db = await openDatabase(location);
  return {
    db,
    ledger: createLedger(db),
    actions: createActionTokens(db),
    invocations: createInvocations(db),
    profiles: createProfileCache(db),
    handles: createProfileHandles(db),
    searches: createSearchSessions(db),
    settings: createSettings(db),
    subscriptions: createSubscriptions(db),
    digests: createDigests(db),
    outbox: createOutbox(db),
    tenants: createTenantStore(db),
    processes: createProcesses(db),
    alerts: createBudgetAlerts(db, options),
    reservations: createReservationBook(db),
    notices: createPersonNotices(db),
    conversations: createConversations(db),
    forPerson: (person, work) =>
      db.transaction(async (tx) => {
        await tx.lock(`person ${person.platform}:${person.workspaceId}:${person.userId}`);
        return work({
          ledger: createLedger(tx),
          settings: createSettings(tx),
          reservations: createReservationBook(tx),
        });
      }),
    close: () => db.close(),
  };
}
