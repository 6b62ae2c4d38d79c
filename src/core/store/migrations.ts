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
  {
    version: 3,
    name: 'reply notifications and daily viral digests',
    sql: `
      -- A channel subscribed to new inbound replies of the team's outreach agent.
      CREATE TABLE reply_subscriptions (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        project_id TEXT,                 -- one agent project; NULL: every project
        created_by TEXT NOT NULL,
        created_at TEXT NOT NULL,        -- replies before this instant are history, never announced
        removed_at TEXT                  -- set by notify off; the row stays for its announcements
      );
      CREATE UNIQUE INDEX reply_subscriptions_active
        ON reply_subscriptions (platform, workspace_id, channel_id, COALESCE(project_id, ''))
        WHERE removed_at IS NULL;

      -- Inbound agent messages the poller has seen (announced or history), so each is considered once.
      CREATE TABLE reply_seen (
        message_id TEXT PRIMARY KEY,
        seen_at TEXT NOT NULL
      );

      -- What the poller knew after its last full read, to tell from one request whether anything is new.
      CREATE TABLE reply_poll_state (
        scope TEXT PRIMARY KEY,
        inbound_total INTEGER NOT NULL,
        checked_at TEXT NOT NULL
      );

      -- One row per (subscription, message): written pending in the transaction that marks the message seen,
      -- then posted with where it landed; later replies of the same mail thread go into that post's thread.
      CREATE TABLE reply_announcements (
        subscription_id INTEGER NOT NULL REFERENCES reply_subscriptions (id),
        message_id TEXT NOT NULL,
        thread_id TEXT,                  -- the mail thread
        message TEXT NOT NULL,           -- JSON snapshot of the agent message
        message_at TEXT,                 -- when the reply was written, for delivery order
        state TEXT NOT NULL CHECK (state IN ('pending', 'posting', 'posted')),
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        posted_at TEXT,
        posted_channel_id TEXT,
        posted_message_id TEXT,
        posted_thread_id TEXT,
        PRIMARY KEY (subscription_id, message_id)
      );
      CREATE INDEX reply_announcements_state ON reply_announcements (state);
      CREATE INDEX reply_announcements_thread ON reply_announcements (subscription_id, thread_id, state);

      -- A daily viral digest of a channel.
      CREATE TABLE digests (
        id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        created_by TEXT NOT NULL,        -- credits are charged to this person
        local_time TEXT NOT NULL,        -- HH:MM
        time_zone TEXT NOT NULL,         -- IANA name
        filters TEXT NOT NULL,           -- JSON viral filters; dates absolute or relative (7d)
        top INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        removed_at TEXT
      );

      -- One row per digest and local day: at most one post a day, posts chosen once, kept for a retry.
      CREATE TABLE digest_runs (
        digest_id INTEGER NOT NULL REFERENCES digests (id),
        local_day TEXT NOT NULL,         -- YYYY-MM-DD in the digest's time zone
        state TEXT NOT NULL CHECK (state IN ('pending', 'posting', 'posted')),
        posts TEXT NOT NULL,             -- JSON posts chosen for the day
        note TEXT,                       -- the one line posted instead when no post is shown
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        posted_at TEXT,
        posted_message_id TEXT,
        PRIMARY KEY (digest_id, local_day)
      );
      CREATE INDEX digest_runs_state ON digest_runs (state);

      -- Posts a digest has shown, left out of its later days.
      CREATE TABLE digest_shown (
        digest_id INTEGER NOT NULL REFERENCES digests (id),
        post_id TEXT NOT NULL,
        local_day TEXT NOT NULL,
        PRIMARY KEY (digest_id, post_id)
      );
    `,
  },
  {
    version: 4,
    name: 'tenants: service accounts, Scout admins, Slack installations; caches scoped to the account',
    sql: `
      -- The service account (API key) a tenant connected with /scout connect, in many-team mode.
      CREATE TABLE tenant_accounts (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,      -- Slack team (or Enterprise Grid org), Discord guild, or 'local'
        account_id TEXT NOT NULL,        -- a fingerprint of the key, never the key
        key_sealed TEXT NOT NULL,        -- the key, AES-256-GCM with SCOUT_ENCRYPTION_KEY (core/tenancy/seal.ts)
        key_hint TEXT NOT NULL,          -- its last four characters, for display
        connected_by TEXT NOT NULL,
        connected_at TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id)
      );
      CREATE INDEX tenant_accounts_account ON tenant_accounts (account_id);

      -- People a workspace admin named Scout admins, besides the platform's own admins.
      CREATE TABLE tenant_admins (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        added_by TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, user_id)
      );

      -- Slack installations made through OAuth (Bolt's InstallProvider), sealed like the keys.
      CREATE TABLE slack_installations (
        id TEXT PRIMARY KEY,             -- enterprise id of an org-wide install, else the team id
        sealed TEXT NOT NULL,            -- the Installation as JSON, AES-256-GCM
        updated_at TEXT NOT NULL
      );

      -- Profiles belong to the account that paid for them. Rows bought before tenants existed are 'legacy' until
      -- the single-team key claims them at start.
      CREATE TABLE creator_profiles_v4 (
        account_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        profile TEXT NOT NULL,
        fetched_at TEXT NOT NULL,
        PRIMARY KEY (account_id, user_id)
      );
      INSERT INTO creator_profiles_v4 (account_id, user_id, profile, fetched_at)
        SELECT 'legacy', user_id, profile, fetched_at FROM creator_profiles;
      DROP TABLE creator_profiles;
      ALTER TABLE creator_profiles_v4 RENAME TO creator_profiles;
      CREATE INDEX creator_profiles_fetched ON creator_profiles (fetched_at);

      -- Inbound messages seen, per account: message ids of two accounts are unrelated.
      CREATE TABLE reply_seen_v4 (
        account_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (account_id, message_id)
      );
      INSERT INTO reply_seen_v4 (account_id, message_id, seen_at)
        SELECT 'legacy', message_id, seen_at FROM reply_seen;
      DROP TABLE reply_seen;
      ALTER TABLE reply_seen_v4 RENAME TO reply_seen;
    `,
  },
  {
    version: 5,
    name: 'invocations know the tenant a state change touched',
    sql: `
      -- Set on finished state changes: a later change in the same tenant forgets them, so undoing and redoing
      -- within the repeat window runs again instead of answering from memory.
      ALTER TABLE invocations ADD COLUMN scope TEXT;
      CREATE INDEX invocations_scope ON invocations (scope);
    `,
  },
  {
    version: 6,
    name: 'claims belong to a running process',
    sql: `
      -- Each running Scout process, with a heartbeat: a claim whose process is gone is taken over at once.
      CREATE TABLE scout_processes (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        heartbeat_at TEXT NOT NULL
      );
      ALTER TABLE invocations ADD COLUMN owner TEXT;
    `,
  },
  {
    version: 7,
    name: 'paid calls are written before they are sent',
    sql: `
      -- A paid call is written before it is sent, at its estimate ('pending'), then completed with the real cost
      -- ('confirmed'). One that may have been charged without a readable answer (a lost connection, a 5xx, a
      -- time-out, an unreadable body, a crash) stays at its estimate as 'unconfirmed' until balances reported by
      -- the service settle it ('settled').
      ALTER TABLE credit_ledger ADD COLUMN state TEXT NOT NULL DEFAULT 'confirmed';
      ALTER TABLE credit_ledger ADD COLUMN estimate INTEGER;
      ALTER TABLE credit_ledger ADD COLUMN account_id TEXT;   -- the service account charged
      ALTER TABLE credit_ledger ADD COLUMN owner TEXT;        -- the process that sent it
      ALTER TABLE credit_ledger ADD COLUMN sent_tick INTEGER; -- ledger ticks order sends and answers
      ALTER TABLE credit_ledger ADD COLUMN done_tick INTEGER; -- across processes sharing the database
      ALTER TABLE credit_ledger ADD COLUMN settle_after TEXT; -- a lost call may still be processed until then
      CREATE INDEX credit_ledger_account_state ON credit_ledger (account_id, state);
      CREATE INDEX credit_ledger_owner_state ON credit_ledger (owner, state);

      -- One counter for every process: the order in which calls were sent and answered.
      CREATE TABLE ledger_clock (id INTEGER PRIMARY KEY CHECK (id = 1), tick INTEGER NOT NULL);
      INSERT INTO ledger_clock (id, tick) VALUES (1, 0);

      -- Balances the service reported on answers that cost nothing, a few per account, to settle unconfirmed calls.
      CREATE TABLE balance_readings (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL,
        sent_tick INTEGER NOT NULL,
        done_tick INTEGER NOT NULL,
        sent_at TEXT NOT NULL,
        balance INTEGER NOT NULL
      );
      CREATE INDEX balance_readings_account ON balance_readings (account_id, done_tick);
    `,
  },
  {
    version: 8,
    name: 'budget alerts',
    sql: `
      -- Private alerts: a person passing 80% and 100% of their daily cap, a tenant's service balance below
      -- SCOUT_BALANCE_ALERT. The primary key is the once-guard (inserted ON CONFLICT DO NOTHING), so processes sharing
      -- the database queue each alert once; a row then goes pending -> posting -> posted like other background posts.
      CREATE TABLE budget_alerts (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,           -- who is told; '*' holds a tenant's balance alert of the day, told to nobody
        threshold TEXT NOT NULL,         -- '80' or '100' (percent of the person's daily cap), or 'balance'
        day TEXT NOT NULL,               -- the UTC day, YYYY-MM-DD
        state TEXT NOT NULL CHECK (state IN ('guard', 'skipped', 'pending', 'posting', 'posted', 'dropped')),
        details TEXT NOT NULL,           -- JSON: the numbers the message states
        attempts INTEGER NOT NULL DEFAULT 0,
        owner TEXT,                      -- the process posting it
        created_at TEXT NOT NULL,
        posted_at TEXT,
        posted_channel_id TEXT,
        posted_message_id TEXT,
        PRIMARY KEY (platform, workspace_id, user_id, threshold, day)
      );
      CREATE INDEX budget_alerts_state ON budget_alerts (state);
      CREATE INDEX budget_alerts_day ON budget_alerts (day);

      -- Platform admins Scout has seen spend credits (besides those it knows from connecting the key and naming
      -- Scout admins): a tenant's balance alert goes to them too.
      CREATE TABLE known_admins (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        seen_at TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, user_id)
      );
    `,
  },
];
