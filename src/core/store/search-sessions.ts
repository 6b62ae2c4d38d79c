/** Creator search sessions: the free ids collected so far and where the service's own paging stands. */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../actor.js';
import type { Db } from './database.js';

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
  create(session: Omit<SearchSession, 'id'>): SearchSession;
  /** The session, only within the tenant that made it. */
  get(id: string, tenant: Pick<Actor, 'platform' | 'workspaceId'>): SearchSession | undefined;
  /** Appends newly collected ids (dropping duplicates) and moves the service paging on. */
  extend(
    id: string,
    ids: readonly string[],
    nextServicePage: number | null,
    serviceTotalPages: number | null,
  ): SearchSession;
  purge(before: Date): number;
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
export function createSearchSessions(db: Db): SearchSessions {
  const insert = db.prepare(`INSERT INTO search_sessions
    (id, platform, workspace_id, user_id, command, filters, ids, next_service_page, service_total_pages, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const select = db.prepare<[string], Row>('SELECT * FROM search_sessions WHERE id = ?');
  const update = db.prepare(
    'UPDATE search_sessions SET ids = ?, next_service_page = ?, service_total_pages = ? WHERE id = ?',
  );
  const purge = db.prepare('DELETE FROM search_sessions WHERE expires_at < ?');
  const get = (id: string) => {
    const row = select.get(id);
    return row === undefined ? undefined : fromRow(row);
  };
  const getWithin = (id: string, tenant: Pick<Actor, 'platform' | 'workspaceId'>) => {
    const session = get(id);
    return session?.actor.platform === tenant.platform && session.actor.workspaceId === tenant.workspaceId
      ? session
      : undefined;
  };
  return {
    create(session) {
      const id = randomBytes(9).toString('base64url');
      insert.run(
        id,
        session.actor.platform,
        session.actor.workspaceId,
        session.actor.userId,
        session.command,
        JSON.stringify(session.filters),
        JSON.stringify([...new Set(session.ids)]),
        session.nextServicePage,
        session.serviceTotalPages,
        session.createdAt.toISOString(),
        session.expiresAt.toISOString(),
      );
      return { ...session, id, ids: [...new Set(session.ids)] };
    },
    get: getWithin,
    extend(id, ids, nextServicePage, serviceTotalPages) {
      const current = get(id);
      if (current === undefined) throw new Error(`No search session ${id}`);
      const merged = [...new Set([...current.ids, ...ids])];
      update.run(JSON.stringify(merged), nextServicePage, serviceTotalPages, id);
      return { ...current, ids: merged, nextServicePage, serviceTotalPages };
    },
    purge(before) {
      return purge.run(before.toISOString()).changes;
    },
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
