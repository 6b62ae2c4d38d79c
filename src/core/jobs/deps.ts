/**
 * What the background jobs use of the running app: the database, the tenants, the settings, the clock, the credits
 * set aside, this process's name and the metrics. The composition root's App has all of it; the jobs see no more.
 */
import type { Clock } from '../clock.js';
import type { CommandSettings } from '../command/types.js';
import type { Reservations } from '../credits.js';
import type { Metrics } from '../metrics.js';
import type { Store } from '../store/index.js';
import type { Tenants } from '../tenancy/index.js';

/** The parts of the app the jobs work with. */
export interface JobsApp {
  readonly store: Store;
  readonly tenants: Tenants;
  readonly settings: CommandSettings;
  readonly clock: Clock;
  readonly reservations: Reservations;
  /** This process in the database: claims and paid calls in flight name it. */
  readonly processId: string;
  readonly metrics: Metrics;
}
