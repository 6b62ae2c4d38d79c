/**
 * Leases: work that exactly one Scout process may do at a time, among the replicas sharing one PostgreSQL database
 * (the background jobs). A lease is a PostgreSQL session-level advisory lock held on a connection of its own: the
 * server releases it the moment that connection ends, so when the replica holding it dies (even by `kill -9`) or
 * loses the database, another replica takes it at its next try, within `checkMs`. On SQLite there is one process
 * per database file: every lease is held at once.
 */
import type pg from 'pg';
import { InternalError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { DatabaseLocation } from './database.js';
import { nodePostgres } from './node-postgres.js';

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

/** Check intervals a replica rests after its work failed to start under a lease, leaving the lease to others. */
const FAILED_START_REST = 12;

/** Creates the leases of a database at `location`. */
export function createLeases(location: DatabaseLocation, options: LeaseOptions = {}): Leases {
  return 'url' in location ? postgresLeases(location.url, options) : localLeases(options);
}

/** SQLite: one process per file, so each lease is held from the start. */
function localLeases(options: LeaseOptions): Leases {
  const running = new Map<string, LeasedWork>();
  return {
    hold(name, work) {
      if (running.has(name)) throw new InternalError(`The lease ${name} is already held.`);
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
  /** When a lease whose work failed to start here may be tried again. */
  const retryAt = new Map<string, number>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client | null> | null = null;
  let closed = false;
  let timers: NodeJS.Timeout[] = [];
  let trying: Promise<void> = Promise.resolve();
  // Starts and stops of work happen one at a time, in order: a stop after a lost connection finishes before the
  // next win starts the work again.
  let turns: Promise<void> = Promise.resolve();
  const inTurn = (work: () => Promise<void>): Promise<void> => {
    const mine = turns.then(work, work);
    turns = mine.catch(() => undefined);
    return mine;
  };
  const lockName = (name: string) => `scout lease ${name}`;

  const stopWork = (name: string) =>
    inTurn(async () => {
      if (!held.delete(name)) return;
      logger?.info({ lease: name }, 'Lease given up: its work stops here.');
      try {
        await wanted.get(name)?.stop();
      } catch (error) {
        logger?.error({ err: error, lease: name }, 'Leased work failed to stop.');
      }
    });

  /** The connection ended (the server restarted, the network failed): every lease went with it. */
  const lost = (gone: pg.Client) => {
    if (client !== gone) return;
    client = null;
    for (const name of [...held]) void stopWork(name);
  };

  const connect = (): Promise<pg.Client | null> => {
    connecting ??= (async () => {
      // Keep-alive probes let this side notice a connection the network dropped without a word.
      const next = new (nodePostgres().Client)({
        connectionString: url,
        application_name: 'scout leases',
        keepAlive: true,
        // A check that gets no answer fails soon, and this side gives its leases up.
        query_timeout: Math.max(1_000, checkMs),
        // The server ends a session that has been silent this long, giving its leases to another replica when the
        // network to this one is cut without a word; `beat` keeps a healthy session talking.
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

  /** Checks that the connection still answers, keeping its session alive even while work is starting. */
  const beat = () => {
    const holding = client;
    if (holding === null || closed) return;
    holding.query('SELECT 1').catch(() => {
      lost(holding);
      void holding.end().catch(() => undefined);
    });
  };

  /** Gives a lease up on the server: every time it was taken on this session (a timed-out try may have taken it). */
  const unlock = async (on: pg.Client, name: string) => {
    for (let i = 0; i < 5; i++) {
      const result = await on
        .query<{ freed: boolean }>('SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS freed', [
          lockName(name),
        ])
        .catch(() => null);
      if (result?.rows[0]?.freed !== true) return;
    }
  };

  /** Tries every lease not held yet (and not resting after a failed start). */
  const tryAll = async () => {
    if (closed) return;
    const now = Date.now();
    const free = [...wanted.keys()].filter((name) => !held.has(name) && (retryAt.get(name) ?? 0) <= now);
    if (free.length === 0) return;
    const on = client ?? (await connect());
    if (on === null || closed) return;
    for (const name of free) {
      try {
        const result = await on.query<{ won: boolean }>(
          'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS won',
          [lockName(name)],
        );
        if (result.rows[0]?.won !== true || closed) continue;
      } catch (error) {
        logger?.warn({ err: error, lease: name }, 'Could not try a lease.');
        continue;
      }
      await inTurn(async () => {
        // The connection may have gone while an earlier stop ran: the lock went with it.
        if (client !== on || closed) return;
        held.add(name);
        logger?.info({ lease: name }, 'Lease won: its work runs here.');
        try {
          await wanted.get(name)?.start();
        } catch (error) {
          // Work that cannot start here (a platform refusing this replica) leaves the lease to another replica, and
          // is not tried here again for a while.
          logger?.error({ err: error, lease: name }, 'Leased work failed to start; the lease is given up.');
          retryAt.set(name, Date.now() + FAILED_START_REST * checkMs);
          held.delete(name);
          try {
            await wanted.get(name)?.stop();
          } catch (stopError) {
            logger?.error({ err: stopError, lease: name }, 'Leased work failed to stop.');
          }
          await unlock(on, name);
          return;
        }
        // Lost while starting: stop what started (queued after this turn).
        if (client !== on && held.has(name)) void stopWork(name);
      });
    }
  };

  const tick = () => {
    trying = trying.then(tryAll, tryAll);
  };

  return {
    hold(name, work) {
      if (wanted.has(name)) throw new InternalError(`The lease ${name} is already held.`);
      wanted.set(name, work);
      if (timers.length === 0) {
        timers = [setInterval(tick, checkMs), setInterval(beat, checkMs)];
        for (const timer of timers) timer.unref();
      }
      tick();
    },
    held: () => [...held],
    async close() {
      closed = true;
      for (const timer of timers) clearInterval(timer);
      timers = [];
      await trying.catch(() => undefined);
      await Promise.all([...held].map((name) => stopWork(name)));
      await turns;
      const last = client ?? (await connecting);
      client = null;
      // Ending the session gives every advisory lock up.
      await last?.end().catch(() => undefined);
    },
  };
}
