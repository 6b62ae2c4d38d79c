/** Creator search sessions: the free ids collected so far and where the service's own paging stands. */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../actor.js';
import { InternalError } from '../errors.js';
import { type Sql, sql } from './sql.js';

/** A stored search. */
export interface SearchSession {
  id: string;
  actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;
  command: string;
  filters: Record<string, unknown>;
  ids: string[];
  /** The service page to fetch next for more ids; null once the service has no further page. */
  nextServicePage: number | null;
  serviceTotalPages: number | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Repository of search sessions. */
export interface SearchSessions {
  create(session: Omit<SearchSession, 'id'>): Promise<SearchSession>;
  /** The session, only within the tenant that made it. */
  get(id: string, tenant: Pick<Actor, 'platform' | 'workspaceId'>): Promise<SearchSession | undefined>;
  /** Appends newly collected ids (dropping duplicates) and moves the service paging on. */
  extend(
    id: string,
    ids: readonly string[],
    nextServicePage: number | null,
    serviceTotalPages: number | null,
  ): Promise<SearchSession>;
  purge(before: Date): Promise<number>;
}

interface Row {
  id: string;
  platform: Actor['platform'];
  workspace_id: string;
  user_id: string;
  command: string;
  filters: string;
  ids: string;
  next_service_page: number | null;
  service_total_pages: number | null;
  created_at: string;
  expires_at: string;
}

/** Creates the search session repository. */
export function createSearchSessions(db: Sql): SearchSessions {
  const get = async (tx: Sql, id: string) => {
    const row = await tx.one<Row>(sql`SELECT * FROM search_sessions WHERE id = ${id}`);
    return row === undefined ? undefined : fromRow(row);
  };
  return {
    async create(session) {
      const id = randomBytes(9).toString('base64url');
      const ids = [...new Set(session.ids)];
      await db.run(
        sql`INSERT INTO search_sessions
            (id, platform, workspace_id, user_id, command, filters, ids, next_service_page, service_total_pages,
             created_at, expires_at)
            VALUES (${id}, ${session.actor.platform}, ${session.actor.workspaceId}, ${session.actor.userId},
              ${session.command}, ${JSON.stringify(session.filters)}, ${JSON.stringify(ids)},
              ${session.nextServicePage}, ${session.serviceTotalPages}, ${session.createdAt.toISOString()},
              ${session.expiresAt.toISOString()})`,
      );
      return { ...session, id, ids };
    },
    async get(id, tenant) {
      const session = await get(db, id);
      return session?.actor.platform === tenant.platform && session.actor.workspaceId === tenant.workspaceId
        ? session
        : undefined;
    },
    extend: (id, ids, nextServicePage, serviceTotalPages) =>
      // Read and write under one lock, so two pages collected at once both keep their ids.
      db.transaction(async (tx) => {
        await tx.lock(`search-sessions:${id}`);
        const current = await get(tx, id);
        if (current === undefined) throw new InternalError(`No search session ${id}`);
        const merged = [...new Set([...current.ids, ...ids])];
        await tx.run(
          sql`UPDATE search_sessions
              SET ids = ${JSON.stringify(merged)}, next_service_page = ${nextServicePage},
                service_total_pages = ${serviceTotalPages}
              WHERE id = ${id}`,
        );
        return { ...current, ids: merged, nextServicePage, serviceTotalPages };
      }),
    purge: (before) => db.run(sql`DELETE FROM search_sessions WHERE expires_at < ${before.toISOString()}`),
  };
}

function fromRow(row: Row): SearchSession {
  return {
    id: row.id,
    actor: { platform: row.platform, workspaceId: row.workspace_id, userId: row.user_id },
    command: row.command,
    filters: JSON.parse(row.filters) as Record<string, unknown>,
    ids: JSON.parse(row.ids) as string[],
    nextServicePage: row.next_service_page,
    serviceTotalPages: row.service_total_pages,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}
