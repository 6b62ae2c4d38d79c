/**
 * Leases: work that exactly one Scout process may do at a time, among the replicas sharing one PostgreSQL database
 * (the background jobs). A lease is a PostgreSQL session-level advisory lock held on a connection of its own: the
 * server releases it the moment that connection ends, so when the replica holding it dies (even by `kill -9`) or
 * loses the database, another replica takes it at its next try, within `checkMs`. On SQLite there is one process
 * per database file: every lease is held at once.
 */
import pg from 'pg';
import type { Logger } from '../logger.js';
import type { DatabaseLocation } from './database.js';

/** Work done under a lease: started when the lease is won, stopped when it is lost or the leases close. */
export interface LeasedWork {
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

/** This process's leases. */
export interface Leases {
  /** Runs `work` whenever this process holds the lease `name`, trying to win it every `checkMs` until then. */
  hold(name: string, work: LeasedWork): void;
  /** The leases held now. */
  held(): string[];
  /** Stops the work of every lease held and gives the leases up. */
  close(): Promise<void>;
}

/** Options of createLeases. */
export interface LeaseOptions {
  /** How often a lease not held is tried again (5 s by default). */
  checkMs?: number;
  logger?: Logger;
}

/** Default interval between tries of a lease held elsewhere. */
export const LEASE_CHECK_MS = 5_000;

/** Creates the leases of a database at `location`. */
export function createLeases(location: DatabaseLocation, options: LeaseOptions = {}): Leases {
  return 'url' in location ? postgresLeases(location.url, options) : localLeases(options);
}

/** SQLite: one process per file, so each lease is held from the start. */
function localLeases(options: LeaseOptions): Leases {
  const running = new Map<string, LeasedWork>();
  return {
    hold(name, work) {
      if (running.has(name)) throw new Error(`The lease ${name} is already held.`);
      running.set(name, work);
      void Promise.resolve()
        .then(() => work.start())
        .catch((error: unknown) =>
          options.logger?.error({ err: error, lease: name }, 'Leased work failed to start.'),
        );
    },
    held: () => [...running.keys()],
    async close() {
      const works = [...running.values()];
      running.clear();
      await Promise.all(works.map((work) => work.stop()));
    },
  };
}

function postgresLeases(url: string, options: LeaseOptions): Leases {
  const checkMs = options.checkMs ?? LEASE_CHECK_MS;
  const logger = options.logger;
  const wanted = new Map<string, LeasedWork>();
  const held = new Set<string>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client | null> | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let trying: Promise<void> = Promise.resolve();

  const stopWork = async (name: string) => {
    if (!held.delete(name)) return;
    logger?.info({ lease: name }, 'Lease given up: its work stops here.');
    try {
      await wanted.get(name)?.stop();
    } catch (error) {
      logger?.error({ err: error, lease: name }, 'Leased work failed to stop.');
    }
  };

  /** The connection ended (the server restarted, the network failed): every lease went with it. */
  const lost = (gone: pg.Client) => {
    if (client !== gone) return;
    client = null;
    for (const name of [...held]) void stopWork(name);
  };

  const connect = (): Promise<pg.Client | null> => {
    connecting ??= (async () => {
      // Keep-alive probes let this side notice a connection the network dropped without a word.
      const next = new pg.Client({
        connectionString: url,
        application_name: 'scout leases',
        keepAlive: true,
        // A check that gets no answer fails soon, and this side gives its leases up.
        query_timeout: Math.max(1_000, checkMs),
        // The server ends a session that has been silent this long, giving its leases to another replica when the
        // network to this one is cut without a word; the checks below keep a healthy session talking.
        options: `-c idle_session_timeout=${3 * checkMs + 1_000}`,
      });
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      try {
        await next.connect();
        client = next;
        return next;
      } catch (error) {
        logger?.warn({ err: error }, 'Could not connect to hold leases; trying again.');
        await next.end().catch(() => undefined);
        return null;
      } finally {
        connecting = null;
      }
    })();
    return connecting;
  };

  /** Checks that the connection still answers (keeping its session alive), then tries every lease not held yet. */
  const tryAll = async () => {
    if (closed) return;
    const holding = client;
    if (holding !== null) {
      try {
        await holding.query('SELECT 1');
      } catch {
        lost(holding);
        await holding.end().catch(() => undefined);
      }
    }
    const free = [...wanted.keys()].filter((name) => !held.has(name));
    if (free.length === 0) return;
    const on = client ?? (await connect());
    if (on === null || closed) return;
    for (const name of free) {
      try {
        const result = await on.query<{ won: boolean }>(
          'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS won',
          [`scout lease ${name}`],
        );
        if (result.rows[0]?.won !== true || closed) continue;
        held.add(name);
        logger?.info({ lease: name }, 'Lease won: its work runs here.');
      } catch (error) {
        logger?.warn({ err: error, lease: name }, 'Could not try a lease.');
        continue;
      }
      try {
        await wanted.get(name)?.start();
      } catch (error) {
        // Work that cannot start here (a platform refusing this replica) leaves the lease to another replica.
        logger?.error({ err: error, lease: name }, 'Leased work failed to start; the lease is given up.');
        await stopWork(name);
        await on
          .query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [`scout lease ${name}`])
          .catch(() => undefined);
      }
    }
  };

  const tick = () => {
    trying = trying.then(tryAll, tryAll);
  };

  return {
    hold(name, work) {
      if (wanted.has(name)) throw new Error(`The lease ${name} is already held.`);
      wanted.set(name, work);
      if (timer === null) {
        timer = setInterval(tick, checkMs);
        timer.unref();
      }
      tick();
    },
    held: () => [...held],
    async close() {
      closed = true;
      if (timer !== null) clearInterval(timer);
      await trying.catch(() => undefined);
      await Promise.all([...held].map((name) => stopWork(name)));
      const last = client ?? (await connecting);
      client = null;
      // Ending the session gives every advisory lock up.
      await last?.end().catch(() => undefined);
    },
  };
}
