/**
 * Idempotency of interactions: a platform that delivers the same interaction twice, a double click or the same
 * command repeated within seconds finds the first invocation here and runs nothing again.
 */
import type { Db } from './database.js';
import { HEARTBEAT_STALE_MS } from './processes.js';

/** What `begin` found. */
export type BeginResult = { status: 'started' } | { status: 'running' } | { status: 'done'; reply: unknown };

/** Repository of invocations. */
export interface Invocations {
  /**
   * Claims `key` for process `owner` unless an invocation under it finished less than `windowMs` ago, or is still
   * running in a live process (one whose heartbeat is fresh). A run whose process is gone is taken over at once; one
   * of unknown owner after `staleMs`.
   */
  begin(key: string, now: Date, windowMs: number, owner: string | null, staleMs?: number): BeginResult;
  /**
   * Stores the finished invocation's reply, for duplicates to receive. A state change (`changed` names the tenant
   * and what it changed) also forgets the other finished changes of that subject in that tenant: repeating one of
   * them after it is a new change (connect, disconnect, connect again), not a duplicate to answer from memory.
   */
  finish(key: string, reply: unknown, now: Date, changed?: string): void;
  /** Forgets a claim whose work failed before doing anything, so the person can try again. */
  release(key: string): void;
  /** Deletes invocations started before `before`. */
  purge(before: Date): number;
}

interface Row {
  state: 'running' | 'done';
  reply: string | null;
  created_at: string;
  owner: string | null;
  /** The owner's last heartbeat; null when the owner is not a registered process. */
  heartbeat_at: string | null;
}

/** Creates the invocation repository. */
export function createInvocations(db: Db): Invocations {
  const select = db.prepare<[string], Row>(`SELECT i.state, i.reply, i.created_at, i.owner, p.heartbeat_at
    FROM invocations i LEFT JOIN scout_processes p ON p.id = i.owner WHERE i.key = ?`);
  const upsert =
    db.prepare(`INSERT INTO invocations (key, state, created_at, owner) VALUES (?, 'running', ?, ?)
    ON CONFLICT (key) DO UPDATE SET state = 'running', reply = NULL, created_at = excluded.created_at,
    finished_at = NULL, owner = excluded.owner`);
  const finishRow = db.prepare(
    "UPDATE invocations SET state = 'done', reply = ?, finished_at = ?, scope = ? WHERE key = ?",
  );
  const forgetOthers = db.prepare("DELETE FROM invocations WHERE scope = ? AND key <> ? AND state = 'done'");
  const finish = db.transaction((key: string, reply: string, at: string, changed: string | null) => {
    finishRow.run(reply, at, changed, key);
    if (changed !== null) forgetOthers.run(changed, key);
  });
  const release = db.prepare('DELETE FROM invocations WHERE key = ?');
  const purge = db.prepare('DELETE FROM invocations WHERE created_at < ?');
  const running = (row: Row, now: Date, staleMs: number): boolean => {
    if (row.owner === null) return now.getTime() - Date.parse(row.created_at) < staleMs;
    return row.heartbeat_at !== null && now.getTime() - Date.parse(row.heartbeat_at) < HEARTBEAT_STALE_MS;
  };
  const begin = db.transaction(
    (key: string, now: Date, windowMs: number, owner: string | null, staleMs: number): BeginResult => {
      const row = select.get(key);
      if (row !== undefined) {
        const age = now.getTime() - Date.parse(row.created_at);
        if (row.state === 'running' && running(row, now, staleMs)) return { status: 'running' };
        if (row.state === 'done' && age < windowMs) {
          return { status: 'done', reply: row.reply === null ? null : (JSON.parse(row.reply) as unknown) };
        }
      }
      upsert.run(key, now.toISOString(), owner);
      return { status: 'started' };
    },
  );
  return {
    begin: (key, now, windowMs, owner, staleMs = 10 * 60_000) =>
      begin.immediate(key, now, windowMs, owner, staleMs),
    finish(key, reply, now, changed) {
      finish(key, JSON.stringify(reply), now.toISOString(), changed ?? null);
    },
    release(key) {
      release.run(key);
    },
    purge(before) {
      return purge.run(before.toISOString()).changes;
    },
  };
}
