/**
 * A key's client with its paid operations callable outside any invocation, through a meter that keeps no books:
 * for tests that buy from the sandbox directly (client behaviour, fixtures picked before Scout is asked). What the
 * books hold is for the meter's own tests (test/core/money).
 */
import type { Meter, ServiceApi, ServiceClient } from '../../src/core/service/index.js';

const NO_BOOKS: Meter = {
  open: async () => ({ answered: async () => undefined, failed: async (error) => error }),
};

/** Every operation of a client, and its own methods. */
export type UnbookedClient = ServiceApi & Pick<ServiceClient, 'metered' | 'stop'>;

/** `client` with every operation, paid ones included, kept out of any ledger. */
export function unbooked(client: ServiceClient): UnbookedClient {
  return { ...client.metered(NO_BOOKS), metered: client.metered, stop: client.stop };
}
