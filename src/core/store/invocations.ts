/**
 * Idempotency of interactions: a platform that delivers the same interaction twice, a double click or the same
 * command repeated within seconds finds the first invocation here, with what was kept of its answer for repeats,
 * and runs nothing again.
 */
import { HEARTBEAT_STALE_MS } from './processes.js';
import { type Sql, sql } from './sql.js';

/** What `begin` found; `reply` as the reader gave it back, `at` when that invocation finished. */
export type BeginResult<R = unknown> =
  | { status: 'started' }
  | { status: 'running' }
  | { status: 'done'; reply: R; at: Date };

/**
 * Reads a stored reply back (parsed JSON); undefined when it is not a reply (an old or damaged row), which is then
 * taken over like a row that is not there.
 */
export type ReplyReader<R> = (stored: unknown) => R | undefined;

/** Repository of invocations. */
export interface Invocations {
  /**
   * Claims `key` for process `owner` unless an invocation under it finished less than `windowMs` ago, or is still
   * running in a live process (one whose heartbeat is fresh). A run whose process is gone is taken over at once; one
   * of unknown owner after `staleMs`. A finished one's reply is given back as `read` reads it; one it cannot read is
   * claimed again, as if it had never run.
   */
  begin<R = unknown>(
    key: string,
    now: Date,
    windowMs: number,
    owner: string | null,
    staleMs?: number,
    read?: ReplyReader<R>,
  ): Promise<BeginResult<R>>;
  /**
   * Stores what is kept of the finished invocation's reply for its duplicates. A state change (`changed` names the tenant
   * and what it changed) also forgets the other finished changes of that subject in that tenant: repeating one of
   * them after it is a new change (connect, disconnect, connect again), not a duplicate to answer from memory.
   */
  finish(key: string, reply: unknown, now: Date, changed?: string): Promise<void>;
  /** Forgets a claim whose work failed before doing anything, so the person can try again. */
  release(key: string): Promise<void>;
  /** Deletes invocations started before `before`. */
  purge(before: Date): Promise<number>;
}

interface Row {
  state: 'running' | 'done';
  reply: string | null;
  created_at: string;
  finished_at: string | null;
  owner: string | null;
  /** The owner's last heartbeat; null when the owner is not a registered process. */
  heartbeat_at: string | null;
}

/** A stored reply as JSON holds it; undefined when the text is not JSON. */
const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Creates the invocation repository. */
export function createInvocations(db: Sql): Invocations {
  const running = (row: Row, now: Date, staleMs: number): boolean => {
    if (row.owner === null) return now.getTime() - Date.parse(row.created_at) < staleMs;
    return row.heartbeat_at !== null && now.getTime() - Date.parse(row.heartbeat_at) < HEARTBEAT_STALE_MS;
  };
  return {
    begin: <R>(
      key: string,
      now: Date,
      windowMs: number,
      owner: string | null,
      staleMs = 10 * 60_000,
      read: ReplyReader<R> = (stored) => stored as R,
    ) =>
      db.transaction(async (tx): Promise<BeginResult<R>> => {
        // Processes beginning the same key at once take turns: the second finds the first one's claim (running),
        // so exactly one runs it, and a stale claim is taken over once.
        await tx.lock(`invocations:${key}`);
        const row = await tx.one<Row>(
          sql`SELECT i.state, i.reply, i.created_at, i.finished_at, i.owner, p.heartbeat_at
              FROM invocations i LEFT JOIN scout_processes p ON p.id = i.owner WHERE i.key = ${key}`,
        );
        if (row !== undefined) {
          const age = now.getTime() - Date.parse(row.created_at);
          if (row.state === 'running' && running(row, now, staleMs)) return { status: 'running' };
          const reply = row.state === 'done' && age < windowMs ? read(parsed(row.reply)) : undefined;
          if (reply !== undefined)
            return { status: 'done', reply, at: new Date(row.finished_at ?? row.created_at) };
        }
        await tx.run(
          sql`INSERT INTO invocations (key, state, created_at, owner) VALUES (${key}, 'running', ${now.toISOString()}, ${owner})
              ON CONFLICT (key) DO UPDATE SET state = 'running', reply = NULL, created_at = excluded.created_at,
              finished_at = NULL, owner = excluded.owner`,
        );
        return { status: 'started' };
      }),
    async finish(key, reply, now, changed) {
      await db.transaction(async (tx) => {
        await tx.run(
          sql`UPDATE invocations SET state = 'done', reply = ${JSON.stringify(reply)}, finished_at = ${now.toISOString()},
                scope = ${changed ?? null}
              WHERE key = ${key}`,
        );
        if (changed !== undefined) {
          await tx.run(
            sql`DELETE FROM invocations WHERE scope = ${changed} AND key <> ${key} AND state = 'done'`,
          );
        }
      });
    },
    async release(key) {
      await db.run(sql`DELETE FROM invocations WHERE key = ${key}`);
    },
    purge: (before) => db.run(sql`DELETE FROM invocations WHERE created_at < ${before.toISOString()}`),
  };
}
