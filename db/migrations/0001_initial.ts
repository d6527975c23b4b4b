// The whole data model: later migrations add columns and indexes, never redesign. Every foreign key
// states its ON DELETE rule: a session takes its batches and markers, a tracked user's sessions
// stay (unlinked), an organization takes its projects and invites, a user its accounts,
// passkeys and memberships.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await executeEach(
    db,
    `
    CREATE TABLE organizations (
      id text PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE users (
      id text PRIMARY KEY,
      name text,
      email text NOT NULL,
      email_verified_at timestamptz,
      avatar_seed text NOT NULL,
      -- bumped to invalidate every token of the user at once ("sign out everywhere", deletion)
      token_version integer NOT NULL DEFAULT 0,
      -- nulled before its organisation is deleted; SET NULL is the safety net
      active_organization_id text REFERENCES organizations (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));
    CREATE INDEX users_active_organization_id_idx ON users (active_organization_id);

    CREATE TABLE accounts (
      id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      provider text NOT NULL,
      provider_account_id text NOT NULL,
      email text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (provider, provider_account_id),
      UNIQUE (user_id, provider)
    );

    CREATE TABLE authenticators (
      credential_id text PRIMARY KEY,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      public_key bytea NOT NULL,
      counter bigint NOT NULL DEFAULT 0,
      credential_device_type text NOT NULL,
      credential_backed_up boolean NOT NULL DEFAULT false,
      transports text[] NOT NULL DEFAULT '{}',
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX authenticators_user_id_idx ON authenticators (user_id);

    CREATE TABLE otp_codes (
      id text PRIMARY KEY,
      email text NOT NULL,
      code_hash text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX otp_codes_email_idx ON otp_codes (lower(email), created_at DESC);
    CREATE INDEX otp_codes_expires_at_idx ON otp_codes (expires_at);

    -- rate limits live in the database so that several instances share them
    CREATE TABLE otp_send_counters (
      email text NOT NULL,
      day date NOT NULL,
      count integer NOT NULL DEFAULT 0,
      last_sent_at timestamptz NOT NULL,
      PRIMARY KEY (email, day)
    );
    CREATE TABLE invite_send_counters (
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      day date NOT NULL,
      count integer NOT NULL DEFAULT 0,
      PRIMARY KEY (user_id, day)
    );

    CREATE TABLE memberships (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'VIEWER')),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, user_id)
    );
    CREATE INDEX memberships_user_id_idx ON memberships (user_id);
    CREATE INDEX memberships_roster_idx ON memberships (organization_id, created_at, id);

    CREATE TABLE invites (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('ADMIN', 'VIEWER')),
      status text NOT NULL DEFAULT 'PENDING'
        CHECK (status IN ('PENDING', 'EXPIRED', 'ACCEPTED', 'DECLINED')),
      invited_by_id text REFERENCES users (id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX invites_pending_key ON invites (organization_id, lower(email))
      WHERE status = 'PENDING';
    CREATE INDEX invites_email_idx ON invites (lower(email));
    CREATE INDEX invites_expires_at_idx ON invites (expires_at);
    CREATE INDEX invites_invited_by_id_idx ON invites (invited_by_id);

    CREATE TABLE projects (
      id text PRIMARY KEY,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      key text NOT NULL UNIQUE CHECK (key ~ '^sp_[0-9a-f]{32}$'),
      display_name_trait_key text,
      last_used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX projects_organization_idx ON projects (organization_id, created_at DESC, id);

    CREATE TABLE tracked_users (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      -- copied from the project (projects never move) so organisation-wide lists use one index
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      external_id text NOT NULL,
      traits jsonb NOT NULL DEFAULT '{}',
      custom_name text,
      display_name_trait_key text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, external_id)
    );
    CREATE INDEX tracked_users_organization_idx
      ON tracked_users (organization_id, created_at DESC, id);

    CREATE TABLE sessions (
      id text PRIMARY KEY,
      project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      external_id text NOT NULL,
      url text,
      referrer text,
      user_agent text,
      screen_width integer,
      screen_height integer,
      language text,
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      duration bigint GENERATED ALWAYS AS (
        COALESCE((extract(epoch FROM ended_at - started_at) * 1000)::bigint, 0)
      ) STORED,
      event_count integer NOT NULL DEFAULT 0,
      tracked_user_id text REFERENCES tracked_users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, external_id)
    );
    CREATE INDEX sessions_org_created_idx ON sessions (organization_id, created_at DESC, id DESC);
    CREATE INDEX sessions_org_duration_idx ON sessions (organization_id, duration DESC, id DESC);
    CREATE INDEX sessions_project_created_idx ON sessions (project_id, created_at DESC, id DESC);
    CREATE INDEX sessions_tracked_user_idx ON sessions (tracked_user_id, started_at DESC, id);
    CREATE INDEX sessions_created_at_idx ON sessions (created_at);

    -- One row per accepted ingest request with events. Batches reference their session by
    -- (project_id, session_external_id) so ingest can insert and deduplicate a batch in the same
    -- statement that upserts its session.
    CREATE TABLE event_batches (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      project_id text NOT NULL,
      session_external_id text NOT NULL,
      first_ts bigint NOT NULL,
      last_ts bigint NOT NULL,
      event_count integer NOT NULL,
      -- SHA-256 of the events as received: an SDK retry of a stored batch is stored once
      digest bytea NOT NULL,
      data bytea NOT NULL,
      -- the request's sliceMarkers, kept beside the events they describe (no server behaviour)
      slice_markers jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      FOREIGN KEY (project_id, session_external_id)
        REFERENCES sessions (project_id, external_id) ON DELETE CASCADE,
      UNIQUE (project_id, session_external_id, digest)
    );
    -- gzip data does not compress again: skip TOAST compression
    ALTER TABLE event_batches ALTER COLUMN data SET STORAGE EXTERNAL;

    CREATE TABLE markers (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      ts bigint NOT NULL,
      kind text NOT NULL,
      data jsonb NOT NULL
    );
    CREATE INDEX markers_session_idx ON markers (session_id, ts, id);
  `,
  );
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TABLE markers, event_batches, sessions, tracked_users, projects, invites, memberships,
      invite_send_counters, otp_send_counters, otp_codes, authenticators, accounts, users,
      organizations;
  `.execute(db);
}

// Drivers with prepared statements take one statement at a time.
// deno-lint-ignore no-explicit-any
async function executeEach(db: Kysely<any>, script: string): Promise<void> {
  const statements = script.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean);
  for (const statement of statements) await sql.raw(statement).execute(db);
}
