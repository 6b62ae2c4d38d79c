/**
 * The Scout processes sharing the database, each with a heartbeat. A claim (see invocations.ts) names the process
 * running it: when that process is gone (killed, crashed), the claim is taken over at once instead of answering
 * "Already working on that" until it grows old.
 */
import type { Db } from './database.js';

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
  /** Registers this process; forgets earlier processes of this host that are no longer running (their claims go). */
  register(self: ProcessIdentity, isRunning: (pid: number) => boolean, now: Date): number;
  heartbeat(id: string, now: Date): void;
  /** Forgets this process at a clean stop, with the claims it still held. */
  unregister(id: string): void;
}

/** Creates the processes repository. */
export function createProcesses(db: Db): Processes {
  const insert = db.prepare(
    'INSERT INTO scout_processes (id, host, pid, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
  );
  const sameHost = db.prepare<[string], { id: string; pid: number }>(
    'SELECT id, pid FROM scout_processes WHERE host = ?',
  );
  const remove = db.prepare('DELETE FROM scout_processes WHERE id = ?');
  const releaseClaims = db.prepare("DELETE FROM invocations WHERE owner = ? AND state = 'running'");
  const beat = db.prepare('UPDATE scout_processes SET heartbeat_at = ? WHERE id = ?');
  const forget = (id: string) => {
    remove.run(id);
    releaseClaims.run(id);
  };
  const register = db.transaction(
    (self: ProcessIdentity, isRunning: (pid: number) => boolean, at: string) => {
      let gone = 0;
      for (const other of sameHost.all(self.host)) {
        // Our own pid under another id is an earlier run of this process (a container restarted as pid 1).
        if (other.pid === self.pid || !isRunning(other.pid)) {
          forget(other.id);
          gone += 1;
        }
      }
      insert.run(self.id, self.host, self.pid, at, at);
      return gone;
    },
  );
  return {
    register: (self, isRunning, now) => register(self, isRunning, now.toISOString()),
    heartbeat(id, now) {
      beat.run(now.toISOString(), id);
    },
    unregister(id) {
      db.transaction(() => forget(id))();
    },
  };
}
