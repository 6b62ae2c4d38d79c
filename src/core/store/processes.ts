/**
 * The Scout processes sharing the database, each with a heartbeat. A claim (see invocations.ts) names the process
 * running it: when that process is gone (killed, crashed), the claim is taken over at once instead of answering
 * "Already working on that" until it grows old, and its paid calls in flight become unconfirmed charges.
 */
import { nextTick, settleAfter } from './ledger-settle.js';
import { type Sql, sql } from './sql.js';

/** A process stops counting as alive when its heartbeat is older than this. */
export const HEARTBEAT_STALE_MS = 30_000;

/** The lock under which processes are registered and forgotten. */
const LOCK = 'processes:register';

/** Who a process is: its id (random per start), host and pid. */
export interface ProcessIdentity {
  id: string;
  host: string;
  pid: number;
}

/** Repository of running processes. */
export interface Processes {
  /**
   * Registers this process; forgets earlier processes of this host that are no longer running, and any process
   * silent for a day (their claims go). Returns how many were forgotten.
   */
  register(self: ProcessIdentity, isRunning: (pid: number) => boolean, now: Date): Promise<number>;
  /** Says the process is alive (registering it again if another process forgot it). */
  heartbeat(self: ProcessIdentity, now: Date): Promise<void>;
  /** Forgets this process at a clean stop (at `now`), with the claims it still held. */
  unregister(id: string, now: Date): Promise<void>;
}

/** Creates the processes repository. */
export function createProcesses(db: Sql): Processes {
  /** Inside a transaction holding LOCK. */
  const forget = async (tx: Sql, id: string, now: Date) => {
    await tx.run(sql`DELETE FROM scout_processes WHERE id = ${id}`);
    await tx.run(sql`DELETE FROM invocations WHERE owner = ${id} AND state = 'running'`);
    // Its paid calls still in flight may have been charged: they stay at their estimate, unconfirmed.
    // When they were sent is not known (a call waits for the rate limiter after it is written), only that it was
    // before now: the service may charge them until SETTLE_GRACE_MS from now.
    await tx.run(
      sql`UPDATE credit_ledger SET state = 'unconfirmed', done_tick = ${await nextTick(tx)}, settle_after = ${settleAfter(now)}
          WHERE owner = ${id} AND state = 'pending'`,
    );
  };
  return {
    register: (self, isRunning, now) =>
      db.transaction(async (tx) => {
        // Processes registering or stopping at the same time on one database find and forget each process once.
        await tx.lock(LOCK);
        const gone = new Set<string>();
        const sameHost = await tx.all<{ id: string; pid: number; heartbeat_at: string }>(
          sql`SELECT id, pid, heartbeat_at FROM scout_processes WHERE host = ${self.host}`,
        );
        for (const other of sameHost) {
          // Our own pid is an earlier run of this process (a container restarted as pid 1) once it stopped beating;
          // while it beats, it is another container that happens to share the host name.
          const stale = now.getTime() - Date.parse(other.heartbeat_at) >= HEARTBEAT_STALE_MS;
          if (other.pid === self.pid ? stale : !isRunning(other.pid)) gone.add(other.id);
        }
        const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
        const silent = await tx.all<{ id: string }>(
          sql`SELECT id FROM scout_processes WHERE heartbeat_at < ${dayAgo}`,
        );
        for (const other of silent) gone.add(other.id);
        for (const id of gone) await forget(tx, id, now);
        const at = now.toISOString();
        await tx.run(
          sql`INSERT INTO scout_processes (id, host, pid, started_at, heartbeat_at)
              VALUES (${self.id}, ${self.host}, ${self.pid}, ${at}, ${at})`,
        );
        return gone.size;
      }),
    async heartbeat(self, now) {
      const at = now.toISOString();
      await db.run(
        sql`INSERT INTO scout_processes (id, host, pid, started_at, heartbeat_at)
            VALUES (${self.id}, ${self.host}, ${self.pid}, ${at}, ${at})
            ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`,
      );
    },
    async unregister(id, now) {
      await db.transaction(async (tx) => {
        await tx.lock(LOCK);
        await forget(tx, id, now);
      });
    },
  };
}
