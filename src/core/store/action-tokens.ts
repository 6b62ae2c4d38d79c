/** The state behind interactive elements: a button or select carries only a short opaque token. */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../actor.js';
import type { Db } from './database.js';

/** Longest token: Discord caps custom_id at 100 characters; Slack's action_id allows 255. */
export const MAX_TOKEN_LENGTH = 100;

/** A stored element. */
export interface ActionRecord {
  token: string;
  kind: string;
  payload: unknown;
  platform: string;
  workspaceId: string;
  ownerId: string | null;
  rerun: string | null;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** What to store for a new element. */
export interface NewAction {
  kind: string;
  payload: unknown;
  actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>;
  /** Only the actor may press it (confirmations, personal pickers). */
  personal?: boolean;
  /** Command text that recreates the element after it expires. */
  rerun?: string | null;
  ttlMs: number;
  now: Date;
}

/** Outcome of looking a token up. */
export type ActionLookup =
  | { status: 'ok'; record: ActionRecord }
  | { status: 'unknown' }
  | { status: 'expired'; record: ActionRecord }
  | { status: 'not-yours'; record: ActionRecord }
  | { status: 'used'; record: ActionRecord };

/** Repository of element tokens. */
export interface ActionTokens {
  create(action: NewAction): string;
  lookup(token: string, actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>, now: Date): ActionLookup;
  /** Marks a single-use element used; false when it was used already (a second click). */
  consume(token: string, now: Date): boolean;
  /** Deletes elements expired before `before`; returns how many. */
  purge(before: Date): number;
}

interface Row {
  token: string;
  kind: string;
  payload: string;
  platform: string;
  workspace_id: string;
  owner_id: string | null;
  rerun: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** Creates the token repository. */
export function createActionTokens(db: Db): ActionTokens {
  const insert = db.prepare(`INSERT INTO action_tokens
    (token, kind, payload, platform, workspace_id, owner_id, rerun, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const select = db.prepare<[string], Row>('SELECT * FROM action_tokens WHERE token = ?');
  const use = db.prepare('UPDATE action_tokens SET used_at = ? WHERE token = ? AND used_at IS NULL');
  const remove = db.prepare('DELETE FROM action_tokens WHERE expires_at < ?');
  return {
    create(action) {
      // 12 random bytes: 16 base64url characters, unguessable; the kind prefix makes logs readable.
      const token = `${action.kind}:${randomBytes(12).toString('base64url')}`;
      if (token.length > MAX_TOKEN_LENGTH) throw new RangeError(`Action kind too long: ${action.kind}`);
      insert.run(
        token,
        action.kind,
        JSON.stringify(action.payload ?? null),
        action.actor.platform,
        action.actor.workspaceId,
        action.personal === true ? action.actor.userId : null,
        action.rerun ?? null,
        action.now.toISOString(),
        new Date(action.now.getTime() + action.ttlMs).toISOString(),
      );
      return token;
    },
    lookup(token, actor, now) {
      if (token.length > MAX_TOKEN_LENGTH) return { status: 'unknown' };
      const row = select.get(token);
      if (row === undefined || row.platform !== actor.platform || row.workspace_id !== actor.workspaceId) {
        return { status: 'unknown' };
      }
      const record = fromRow(row);
      if (record.expiresAt.getTime() <= now.getTime()) return { status: 'expired', record };
      if (record.ownerId !== null && record.ownerId !== actor.userId) return { status: 'not-yours', record };
      if (record.usedAt !== null) return { status: 'used', record };
      return { status: 'ok', record };
    },
    consume(token, now) {
      return use.run(now.toISOString(), token).changes === 1;
    },
    purge(before) {
      return remove.run(before.toISOString()).changes;
    },
  };
}

function fromRow(row: Row): ActionRecord {
  return {
    token: row.token,
    kind: row.kind,
    payload: JSON.parse(row.payload) as unknown,
    platform: row.platform,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    rerun: row.rerun,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    usedAt: row.used_at === null ? null : new Date(row.used_at),
  };
}
