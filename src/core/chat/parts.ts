/** What the chat port is built from, given explicitly by the composition root (src/app.ts). */
import type { Clock } from '../clock.js';
import type { Dispatcher } from '../command/dispatcher.js';
import type { CommandRegistry, CommandSettings } from '../command/types.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import type { Readiness } from '../readiness.js';
import type { Store } from '../store/index.js';
import type { Sealer, Tenants } from '../tenancy/index.js';

/** Which links name a creator profile, and the command that answers one (src/commands provides them). */
export interface ProfileLinks {
  /** The registrable domains of the profile links read; platforms match their subdomains too. */
  readonly domains: readonly string[];
  /** Whether `url` names a creator profile. */
  names(url: string): boolean;
  /** The command that answers a link, given it as its option `option`. */
  readonly command: { readonly family: string; readonly command: string; readonly option: string };
}

/** What the port is built from. */
export interface ChatParts {
  dispatcher: Dispatcher;
  registry: CommandRegistry;
  store: Store;
  tenants: Tenants;
  clock: Clock;
  settings: CommandSettings;
  metrics: Metrics;
  readiness: Readiness;
  /** The logger's secret set. */
  secrets: Set<string>;
  logger: Logger;
  /** Seals stored installations (many-team mode); null in single-team mode. */
  sealer: Sealer | null;
  profileLinks: ProfileLinks;
}

/** What the forms door is built from: the chat port's parts it reads. */
export type FormParts = Pick<
  ChatParts,
  'dispatcher' | 'registry' | 'store' | 'tenants' | 'clock' | 'settings'
>;
