/**
 * The last answer of each conversation (a direct message, a mention's thread, the terminal's session): the exact
 * command line it answered and its buttons, so that a follow-up refines or acts on it. Kept with the tenant in the
 * database, so it survives a restart and holds across replicas; it expires like the buttons it holds.
 */
import { z } from 'zod';
import type { Actor } from '../actor.js';
import { type Sql, sql } from './sql.js';

type Tenant = Pick<Actor, 'platform' | 'workspaceId'>;

/** One button or select of the last answer, numbered as shown. */
const conversationAction = z.object({
  index: z.number(),
  actionId: z.string(),
  label: z.string(),
  kind: z.enum(['button', 'select']),
  options: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
});

/** One button or select of a conversation's last answer, as the text renderer numbers it. */
export interface ConversationAction {
  readonly index: number;
  readonly actionId: string;
  readonly label: string;
  readonly kind: 'button' | 'select';
  readonly options?: readonly { readonly label: string; readonly value: string }[];
}

/** What is kept of a conversation's last answer. */
export interface ConversationState {
  /** The exact command line it answered (`creators search country:France`), or null when it answered none. */
  line: string | null;
  actions: readonly ConversationAction[];
}

/** The conversations of every tenant. */
export interface Conversations {
  /** The conversation's last answer, when it has not expired at `now`; only within its tenant. */
  get(tenant: Tenant, conversation: string, now: Date): Promise<ConversationState | undefined>;
  /** Keeps `state` as the conversation's last answer until `expiresAt`. */
  put(tenant: Tenant, conversation: string, state: ConversationState, expiresAt: Date): Promise<void>;
  /** Drops conversations expired before `before`; the count dropped. */
  purge(before: Date): Promise<number>;
}

interface Row {
  line: string | null;
  actions: string;
}

const stored = z.array(conversationAction);

/** Creates the repository of conversations. */
export function createConversations(db: Sql): Conversations {
  return {
    async get(tenant, conversation, now) {
      const row = await db.one<Row>(
        sql`SELECT line, actions FROM conversations
            WHERE platform = ${tenant.platform} AND workspace_id = ${tenant.workspaceId}
              AND conversation = ${conversation} AND expires_at > ${now.toISOString()}`,
      );
      if (row === undefined) return undefined;
      const actions = stored.safeParse(JSON.parse(row.actions));
      if (!actions.success) return { line: row.line, actions: [] };
      return {
        line: row.line,
        actions: actions.data.map(({ options, ...action }) =>
          options === undefined ? action : { ...action, options },
        ),
      };
    },
    async put(tenant, conversation, state, expiresAt) {
      await db.run(
        sql`INSERT INTO conversations (platform, workspace_id, conversation, line, actions, expires_at)
            VALUES (${tenant.platform}, ${tenant.workspaceId}, ${conversation}, ${state.line},
              ${JSON.stringify(state.actions)}, ${expiresAt.toISOString()})
            ON CONFLICT (platform, workspace_id, conversation)
            DO UPDATE SET line = excluded.line, actions = excluded.actions, expires_at = excluded.expires_at`,
      );
    },
    purge: (before) => db.run(sql`DELETE FROM conversations WHERE expires_at < ${before.toISOString()}`),
  };
}
