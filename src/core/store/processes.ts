/**
 * The Scout processes sharing the database, each with a heartbeat. A claim (see invocations.ts) names the process
 * running it: when that process is gone (killed, crashed), the claim is taken over at once instead of answering
 * "Already working on that" until it grows old, and its paid calls in flight become unconfirmed charges.
 */
import type { Db } from './database.js';
import { nextTick, settleAfter } from './ledger-settle.js';

/** A process stops counting as alive when its heartbeat is older than this. */
export const HEARTBEAT_STALE_MS = 30_000;

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
  register(self: ProcessIdentity, isRunning: (pid: number) => boolean, now: Date): number;
  /** Says the process is alive (registering it again if another process forgot it). */
  heartbeat(self: ProcessIdentity, now: Date): void;
  /** Forgets this process at a clean stop (at `now`), with the claims it still held. */
  unregister(id: string, now: Date): void;
}

/** Creates the processes repository. */
export function createProcesses(db: Db): Processes {
  const insert = db.prepare(
    'INSERT INTO scout_processes (id, host, pid, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
  );
  const sameHost = db.prepare<[string], { id: string; pid: number; heartbeat_at: string }>(
    'SELECT id, pid, heartbeat_at FROM scout_processes WHERE host = ?',
  );
  const silent = db.prepare<[string], { id: string }>(
    'SELECT id FROM scout_processes WHERE heartbeat_at < ?',
  );
  const remove = db.prepare('DELETE FROM scout_processes WHERE id = ?');
  const releaseClaims = db.prepare("DELETE FROM invocations WHERE owner = ? AND state = 'running'");
  // Its paid calls still in flight may have been charged: they stay at their estimate, unconfirmed.
  // When they were sent is not known (a call waits for the rate limiter after it is written), only that it was
  // before now: the service may charge them until SETTLE_GRACE_MS from now.
  const orphanCalls = db.prepare<[number, string, string]>(
    `UPDATE credit_ledger SET state = 'unconfirmed', done_tick = ?, settle_after = ?
     WHERE owner = ? AND state = 'pending'`,
  );
  const beat = db.prepare(`INSERT INTO scout_processes (id, host, pid, started_at, heartbeat_at)
    VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`);
  const forget = (id: string, now: Date) => {
    remove.run(id);
    releaseClaims.run(id);
    orphanCalls.run(nextTick(db), settleAfter(now), id);
  };
  const register = db.transaction((self: ProcessIdentity, isRunning: (pid: number) => boolean, now: Date) => {
    const gone = new Set<string>();
    for (const other of sameHost.all(self.host)) {
      // Our own pid is an earlier run of this process (a container restarted as pid 1) once it stopped beating;
      // while it beats, it is another container that happens to share the host name.
      const stale = now.getTime() - Date.parse(other.heartbeat_at) >= HEARTBEAT_STALE_MS;
      if (other.pid === self.pid ? stale : !isRunning(other.pid)) gone.add(other.id);
    }
    for (const other of silent.all(new Date(now.getTime() - 86_400_000).toISOString())) gone.add(other.id);
    for (const id of gone) forget(id, now);
    const at = now.toISOString();
    insert.run(self.id, self.host, self.pid, at, at);
    return gone.size;
  });
  return {
    register: (self, isRunning, now) => register(self, isRunning, now),
    heartbeat(self, now) {
      const at = now.toISOString();
      beat.run(self.id, self.host, self.pid, at, at);
    },
    unregister(id, now) {
      db.transaction(() => forget(id, now))();
    },
  };
}
