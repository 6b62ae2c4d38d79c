/** Builds Scout's object graph (store, service client, commands, dispatcher), shared by main and the tests. */
import type { Clock } from './core/clock.js';
import { systemClock } from './core/clock.js';
import { createDispatcher, type Dispatcher } from './core/command/dispatcher.js';
import { createRegistry } from './core/command/registry.js';
import type { CommandFamily, CommandRegistry, CommandSettings } from './core/command/types.js';
import { createReservations, type Reservations } from './core/credits.js';
import { createHousekeeping } from './core/housekeeping.js';
import type { Logger } from './core/logger.js';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from './core/service/index.js';
import { openStore, type Store } from './core/store/index.js';

/** Defaults of the command settings that have no environment variable. */
export const DEFAULT_SETTINGS: CommandSettings = {
  confirmAbove: 20,
  defaultDailyCap: null,
  profileTtlMs: 7 * 86_400_000,
  elementTtlMs: 30 * 86_400_000,
  repeatWindowMs: 10_000,
};

/** What the app is built from. */
export interface AppOptions {
  service: ServiceClientOptions;
  databasePath: string;
  settings?: Partial<CommandSettings>;
  logger: Logger;
  clock?: Clock;
  /** The command families (src/commands FAMILIES in production). */
  families: readonly CommandFamily[];
}

/** The running graph. */
export interface App {
  readonly store: Store;
  readonly service: ServiceClient;
  readonly registry: CommandRegistry;
  readonly dispatcher: Dispatcher;
  readonly settings: CommandSettings;
  readonly clock: Clock;
  /** Credits set aside for paid work in flight (commands and digests), so together they stay within caps. */
  readonly reservations: Reservations;
  stop(): Promise<void>;
}

/** Creates the app; stop() releases the service client's limiter and closes the database. */
export function createApp(options: AppOptions): App {
  const clock = options.clock ?? systemClock;
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const store = openStore(options.databasePath);
  const service = createServiceClient({ ...options.service, logger: options.logger });
  const registry = createRegistry(options.families);
  const reservations = createReservations();
  const dispatcher = createDispatcher({
    registry,
    store,
    service,
    clock,
    logger: options.logger,
    settings,
    reservations,
  });
  const housekeeping = createHousekeeping(store, clock, {
    invocationsMs: 86_400_000,
    expiredElementsMs: settings.elementTtlMs,
    profilesMs: settings.profileTtlMs,
  });
  housekeeping.start();
  return {
    store,
    service,
    registry,
    dispatcher,
    settings,
    clock,
    reservations,
    async stop() {
      housekeeping.stop();
      await service.stop();
      store.close();
    },
  };
}
