/**
 * Where a platform's app installations are kept (Slack's OAuth installations in many-team mode): each one's JSON,
 * sealed with AES-256-GCM under SCOUT_ENCRYPTION_KEY, in the store's slack_installations table, bound to the id it
 * is kept under, so a row copied to another id fails to open.
 */
import type { Store } from '../store/index.js';
import type { Sealer } from '../tenancy/index.js';

/** The sealed installations, by the id they are kept under (an Enterprise Grid org, or a workspace). */
export interface InstallationVault {
  /** Whether `id` has an installation: nothing is opened. */
  has(id: string): Promise<boolean>;
  /** The installation's JSON; null when there is none. Throws when it cannot be opened (altered, another key). */
  open(id: string): Promise<string | null>;
  /** Seals and keeps the installation's JSON under `id`, replacing any; `now` is when. */
  keep(id: string, json: string, now: Date): Promise<void>;
  /** Forgets the installation of `id`; false when there was none. */
  remove(id: string): Promise<boolean>;
}

// The additional data a sealed installation is bound to: a row copied to another id, or into another table, fails.
const context = (id: string) => `slack-installation:${id}`;

/** Creates the vault over the store, sealing with `sealer`. */
export function createInstallationVault(store: Pick<Store, 'tenants'>, sealer: Sealer): InstallationVault {
  return {
    has: async (id) => id !== '' && (await store.tenants.slackInstallation(id)) !== null,
    async open(id) {
      const sealed = id === '' ? null : await store.tenants.slackInstallation(id);
      return sealed === null ? null : sealer.open(sealed, context(id));
    },
    keep: (id, json, now) => store.tenants.putSlackInstallation(id, sealer.seal(json, context(id)), now),
    remove: (id) => store.tenants.removeSlackInstallation(id),
  };
}
