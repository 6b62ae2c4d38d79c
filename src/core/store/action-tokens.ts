/** The state behind interactive elements: a button or select carries only a short opaque token. */
import { randomBytes } from 'node:crypto';
import type { Actor } from '../actor.js';
import { InternalError } from '../errors.js';
import { type Sql, sql } from './sql.js';

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

/** A new element's token and row, not stored yet. */
export interface MintedAction {
  readonly token: string;
  readonly kind: string;
  /** The payload as JSON. */
  readonly payload: string;
  readonly platform: string;
  readonly workspaceId: string;
  readonly ownerId: string | null;
  readonly rerun: string | null;
  readonly createdAt: string;
  readonly expiresAt: string;
}

/** A token's random part: 12 bytes, 16 base64url characters, unguessable. */
const RANDOM_BYTES = 12;
const RANDOM_PART = /^[A-Za-z0-9_-]{16}$/;

/**
 * The kind a token was minted with (`kind:random`, see mint): what it is for, readable without a lookup; null for
 * a string not shaped as a token. The one reader of the token's format.
 */
export function tokenKind(token: string): string | null {
  const colon = token.lastIndexOf(':');
  if (colon <= 0 || token.length > MAX_TOKEN_LENGTH) return null;
  return RANDOM_PART.test(token.slice(colon + 1)) ? token.slice(0, colon) : null;
}

/** Makes the token of a new element and its row, without storing it (see ActionTokens.save). */
export function mint(action: NewAction): MintedAction {
  // The kind prefix makes logs readable, and says what a token is for before it is looked up (tokenKind).
  const token = `${action.kind}:${randomBytes(RANDOM_BYTES).toString('base64url')}`;
  if (token.length > MAX_TOKEN_LENGTH) throw new InternalError(`Action kind too long: ${action.kind}`);
  return {
    token,
    kind: action.kind,
    payload: JSON.stringify(action.payload ?? null),
    platform: action.actor.platform,
    workspaceId: action.actor.workspaceId,
    ownerId: action.personal === true ? action.actor.userId : null,
    rerun: action.rerun ?? null,
    createdAt: action.now.toISOString(),
    expiresAt: new Date(action.now.getTime() + action.ttlMs).toISOString(),
  };
}

/** Repository of element tokens. */
export interface ActionTokens {
  /** Stores a new element; its token. */
  create(action: NewAction): Promise<string>;
  /** Makes a new element's token without storing it yet: a reply's elements are then stored together. */
  mint(action: NewAction): MintedAction;
  /** Stores minted elements, in one statement. */
  save(minted: readonly MintedAction[]): Promise<void>;
  lookup(
    token: string,
    actor: Pick<Actor, 'platform' | 'workspaceId' | 'userId'>,
    now: Date,
  ): Promise<ActionLookup>;
  /** Marks a single-use element used; false when it was used already (a second click). */
  consume(token: string, now: Date): Promise<boolean>;
  /** Deletes elements expired before `before`; returns how many. */
  purge(before: Date): Promise<number>;
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

/** Elements stored by one statement. */
const SAVE_CHUNK = 500;

/** Creates the token repository. */
export function createActionTokens(db: Sql): ActionTokens {
  const save = async (minted: readonly MintedAction[]) => {
    if (minted.length === 0) return;
    const rows = minted.map(
      (m) =>
        sql`(${m.token}, ${m.kind}, ${m.payload}, ${m.platform}, ${m.workspaceId}, ${m.ownerId}, ${m.rerun},
             ${m.createdAt}, ${m.expiresAt})`,
    );
    // Chunks keep each statement far below both engines' limits on parameters (9 a row).
    await db.transaction(async (tx) => {
      for (let at = 0; at < rows.length; at += SAVE_CHUNK) {
        await tx.run(
          sql`INSERT INTO action_tokens
                (token, kind, payload, platform, workspace_id, owner_id, rerun, created_at, expires_at)
              VALUES ${sql.join(rows.slice(at, at + SAVE_CHUNK))}`,
        );
      }
    });
  };
  return {
    mint,
    save,
    async create(action) {
      const minted = mint(action);
      await save([minted]);
      return minted.token;
    },
    async lookup(token, actor, now) {
      if (token.length > MAX_TOKEN_LENGTH) return { status: 'unknown' };
      const row = await db.one<Row>(sql`SELECT * FROM action_tokens WHERE token = ${token}`);
      if (row === undefined || row.platform !== actor.platform || row.workspace_id !== actor.workspaceId) {
        return { status: 'unknown' };
      }
      const record = fromRow(row);
      if (record.expiresAt.getTime() <= now.getTime()) return { status: 'expired', record };
      if (record.ownerId !== null && record.ownerId !== actor.userId) return { status: 'not-yours', record };
      if (record.usedAt !== null) return { status: 'used', record };
      return { status: 'ok', record };
    },
    async consume(token, now) {
      // One conditional statement: of processes pressing the same element at once, exactly one changes the row.
      const changed = await db.run(
        sql`UPDATE action_tokens SET used_at = ${now.toISOString()} WHERE token = ${token} AND used_at IS NULL`,
      );
      return changed === 1;
    },
    purge: (before) => db.run(sql`DELETE FROM action_tokens WHERE expires_at < ${before.toISOString()}`),
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
