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
  {
    version: 2,
    name: 'interactions, idempotency, profile cache, search sessions, caps and preferences',
    sql: `
      -- State behind every interactive element: buttons and selects carry only the token.
      CREATE TABLE action_tokens (
        token TEXT PRIMARY KEY,
        kind TEXT NOT NULL,              -- which action handler runs, e.g. creators.page
        payload TEXT NOT NULL,           -- JSON given to the handler
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        owner_id TEXT,                   -- only this person may press it; NULL: anyone in the workspace
        rerun TEXT,                      -- command text that recreates the element once it has expired
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT                     -- set once for single-use elements (confirmations)
      );
      CREATE INDEX action_tokens_expires ON action_tokens (expires_at);

      -- One row per handled interaction or repeated command, so a duplicate runs nothing twice.
      CREATE TABLE invocations (
        key TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('running', 'done')),
        reply TEXT,                      -- JSON reply model of a finished invocation
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX invocations_created ON invocations (created_at);

      -- Paid creator profiles, reused for paging back, reopening and other people viewing them.
      CREATE TABLE creator_profiles (
        user_id TEXT PRIMARY KEY,
        profile TEXT NOT NULL,           -- JSON as normalized by the service client
        fetched_at TEXT NOT NULL
      );

      -- A creator search: the ids collected so far (free) and where the service's paging stands.
      CREATE TABLE search_sessions (
        id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        command TEXT NOT NULL,           -- the command text, to rerun it
        filters TEXT NOT NULL,           -- JSON input of the search
        ids TEXT NOT NULL,               -- JSON array of creator ids collected so far
        next_service_page INTEGER,       -- NULL once the service has no further page
        service_total_pages INTEGER,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );

      -- Daily credit caps set by admins; user_id '*' is the workspace default.
      CREATE TABLE credit_caps (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        daily_cap INTEGER NOT NULL CHECK (daily_cap >= 0),
        set_by TEXT NOT NULL,
        set_at TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, user_id)
      );

      -- Small per-person preferences, such as the list last added to.
      CREATE TABLE user_preferences (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, user_id, name)
      );
    `,
  },
];
