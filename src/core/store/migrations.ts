/** The ordered schema migrations. Append only: a shipped migration is never edited, a change is a new version. */

/** One schema step. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration of Scout, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'credit ledger',
    sql: `
      CREATE TABLE credit_ledger (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,                -- ISO 8601 UTC time of the call
        platform TEXT NOT NULL,          -- slack | discord | terminal | job
        workspace_id TEXT NOT NULL,      -- Slack team, Discord guild, or 'local'
        user_id TEXT NOT NULL,           -- the person the call is attributed to
        operation TEXT NOT NULL,         -- service operation, e.g. creators.get
        command TEXT,                    -- the chat command that caused it, e.g. creators search
        units INTEGER NOT NULL,          -- items the service returned (creators, posts, videos, requests)
        credits INTEGER NOT NULL,        -- credits charged by the pricing table
        balance INTEGER,                 -- x-ty-credits reported after the call, when present
        idempotency_key TEXT NOT NULL UNIQUE
      );
      CREATE INDEX credit_ledger_workspace_at ON credit_ledger (platform, workspace_id, at);
      CREATE INDEX credit_ledger_user_at ON credit_ledger (platform, workspace_id, user_id, at);
    `,
  },
];
