/**
 * Idempotency of interactions: a platform that delivers the same interaction twice, a double click or the same
 * command repeated within seconds finds the first invocation here and runs nothing again.
 */
import type { Db } from './database.js';

/** What `begin` found. */
export type BeginResult = { status: 'started' } | { status: 'running' } | { status: 'done'; reply: unknown };

/** Repository of invocations. */
export interface Invocations {
  /**
   * Claims `key` unless an invocation under it started less than `windowMs` ago (or is still running and not
   * older than `staleMs`, after which a crashed run is taken over).
   */
  begin(key: string, now: Date, windowMs: number, staleMs?: number): BeginResult;
  /** Stores the finished invocation's reply, for duplicates to receive. */
  finish(key: string, reply: unknown, now: Date): void;
  /** Forgets a claim whose work failed before doing anything, so the person can try again. */
  release(key: string): void;
  /** Deletes invocations started before `before`. */
  purge(before: Date): number;
}

interface Row {
  state: 'running' | 'done';
  reply: string | null;
  created_at: string;
}

/** Creates the invocation repository. */
export function createInvocations(db: Db): Invocations {
  const select = db.prepare<[string], Row>('SELECT state, reply, created_at FROM invocations WHERE key = ?');
  const upsert = db.prepare(`INSERT INTO invocations (key, state, created_at) VALUES (?, 'running', ?)
    ON CONFLICT (key) DO UPDATE SET state = 'running', reply = NULL, created_at = excluded.created_at, finished_at = NULL`);
  const finish = db.prepare(
    "UPDATE invocations SET state = 'done', reply = ?, finished_at = ? WHERE key = ?",
  );
  const release = db.prepare('DELETE FROM invocations WHERE key = ?');
  const purge = db.prepare('DELETE FROM invocations WHERE created_at < ?');
  const begin = db.transaction((key: string, now: Date, windowMs: number, staleMs: number): BeginResult => {
    const row = select.get(key);
    if (row !== undefined) {
      const age = now.getTime() - Date.parse(row.created_at);
      if (row.state === 'running' && age < staleMs) return { status: 'running' };
      if (row.state === 'done' && age < windowMs) {
        return { status: 'done', reply: row.reply === null ? null : (JSON.parse(row.reply) as unknown) };
      }
    }
    upsert.run(key, now.toISOString());
    return { status: 'started' };
  });
  return {
    begin: (key, now, windowMs, staleMs = 10 * 60_000) => begin.immediate(key, now, windowMs, staleMs),
    finish(key, reply, now) {
      finish.run(JSON.stringify(reply), now.toISOString(), key);
    },
    release(key) {
      release.run(key);
    },
    purge(before) {
      return purge.run(before.toISOString()).changes;
    },
  };
}
