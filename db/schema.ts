// Row types of every table (snake_case, as in SQL; the sign-in ones in db/auth_schema.ts, the
// audit log and erasure tombstones in db/governance_schema.ts, comments and saved searches in
// db/collaboration_schema.ts). Query functions return these; the domain maps them to wire shapes
// so row types never leak into API responses.
import type { ColumnType, Generated } from "kysely";
import type {
  AuthenticatorTable,
  InviteSendCounterTable,
  OAuthStateTable,
  OtpCodeTable,
  OtpSendCounterTable,
  RateLimitCounterTable,
  RevokedTokenTable,
  WebauthnChallengeTable,
} from "./auth_schema.ts";

import type {
  AuditLogTable,
  ErasedSessionTable,
  ErasedTrackedUserTable,
} from "./governance_schema.ts";

export type * from "./auth_schema.ts";
export type * from "./governance_schema.ts";
export type * from "./alerts_schema.ts";
import type { AlertTables } from "./alerts_schema.ts";
export type * from "./collaboration_schema.ts";
import type { CollaborationTables } from "./collaboration_schema.ts";
export type * from "./heatmaps_schema.ts";
import type { HeatmapTables } from "./heatmaps_schema.ts";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json = ColumnType<unknown, string, string>;

export type Role = "OWNER" | "ADMIN" | "VIEWER";
export type InviteStatus = "PENDING" | "EXPIRED" | "ACCEPTED" | "DECLINED";

export interface OrganizationTable {
  id: string;
  name: string;
  /** Public links to its sessions may be made and opened (migration 0022). */
  allow_public_links: Generated<boolean>;
  /** Opening a replay writes a `session.view` audit row (migration 0034). */
  audit_views: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface UserTable {
  id: string;
  name: string | null;
  email: string;
  email_verified_at: Timestamp | null;
  avatar_seed: string;
  token_version: Generated<number>;
  active_organization_id: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface AccountTable {
  id: string;
  user_id: string;
  provider: string;
  provider_account_id: string;
  email: string | null;
  created_at: CreatedAt;
}

export interface MembershipTable {
  id: string;
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: CreatedAt;
}

export interface InviteTable {
  id: string;
  organization_id: string;
  email: string;
  role: Exclude<Role, "OWNER">;
  status: Generated<InviteStatus>;
  invited_by_id: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ProjectTable {
  id: string;
  organization_id: string;
  name: string;
  key: string;
  display_name_trait_key: string | null;
  last_used_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** The recording settings the SDK reads (migration 0024). */
  recording_sample_rate: Generated<number>;
  recording_min_duration_ms: Generated<number>;
  recording_url_block: Generated<string[]>;
  recording_url_allow: Generated<string[]>;
  recording_triggers: Generated<string[]>;
  recording_buffer_ms: Generated<number>;
  /** The network settings the SDK reads (migration 0027). */
  network_enabled: Generated<boolean>;
  network_headers: Generated<string[]>;
  network_body_urls: Generated<string[]>;
  network_vitals: Generated<boolean>;
  /** Days the daily cleanup keeps the project's sessions, 1–365 (migration 0036). */
  retention_days: Generated<number>;
}

export interface TrackedUserTable {
  id: string;
  project_id: string;
  organization_id: string;
  external_id: string;
  traits: Json;
  custom_name: string | null;
  display_name_trait_key: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Rollups kept by triggers on sessions (migration 0004): latest session end, count, sum. */
  last_event_at: ColumnType<Date | null, never, never>;
  session_count: ColumnType<number, never, never>;
  active_time: ColumnType<number, never, never>;
  /** External id, custom name and trait values, one per line, for `user` (migration 0018). */
  search_text: ColumnType<string, never, never>;
}

export interface SessionTable {
  id: string;
  project_id: string;
  organization_id: string;
  external_id: string;
  url: string | null;
  referrer: string | null;
  user_agent: string | null;
  screen_width: number | null;
  screen_height: number | null;
  language: string | null;
  started_at: Timestamp;
  ended_at: Timestamp | null;
  /** Milliseconds, derived by the database from started_at and ended_at. */
  duration: ColumnType<number, never, never>;
  event_count: Generated<number>;
  tracked_user_id: string | null;
  created_at: CreatedAt;
  /** What activity reads of the url markers and batches, kept by ingest (migration 0010). */
  url_ts: Generated<number[]>;
  url_pathnames: Generated<(string | null)[]>;
  batch_ts: Generated<number[]>;
  batch_events: Generated<number[]>;
  /** Signal markers counted by ingest, and the parsed user agent (migration 0014). */
  error_count: Generated<number>;
  rage_click_count: Generated<number>;
  dead_click_count: Generated<number>;
  browser: string | null;
  os: string | null;
  device: string | null;
  /** Why it was recorded, and when its trigger happened (epoch ms; migration 0025). */
  recording_reason: Generated<string>;
  triggered_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Requests answered 5xx or failed (status 0), and the slowest request's ms (migration 0028). */
  network_error_count: Generated<number>;
  max_request_ms: Generated<number>;
  /** The web vitals' `name:rating` pairs of its pages, e.g. `lcp:poor` (migration 0028). */
  web_vitals: Generated<string[]>;
  /** Pinned: kept past its project's retention (migration 0036). */
  pinned_at: Timestamp | null;
}

export interface EventBatchTable {
  id: ColumnType<number, never, never>;
  project_id: string;
  session_external_id: string;
  /** The session's created_at: the day partition (migration 0012). */
  session_created_at: Timestamp;
  first_ts: number;
  last_ts: number;
  event_count: number;
  digest: Uint8Array;
  /** gzip of the JSON array of events, exactly as received; null once offloaded (0016). */
  data: Uint8Array | null;
  slice_markers: Json | null;
  /** Timestamp of the batch's first full snapshot led by a Meta; null without (migration 0015). */
  snapshot_ts: ColumnType<number | null, number | null | undefined, never>;
  created_at: CreatedAt;
  /** Written while a store is configured and not yet offloaded (migration 0016). */
  staged: boolean | null;
  /** Where an offloaded batch's bytes are: the object and the byte range in it. */
  object_key: string | null;
  object_offset: number | null;
  object_length: number | null;
  /** Offloaded sealed under its session's data key (migration 0033); null: inline or in clear. */
  object_sealed: boolean | null;
  offload_claim: string | null;
  offload_claim_expires: Timestamp | null;
}

/**
 * The SDK's sequence numbers of one page's events stored for a session (migration 0031): ingest
 * stores each numbered event once, however its copies were cut into batches.
 */
export interface PageSequenceTable {
  project_id: string;
  session_external_id: string;
  session_created_at: Timestamp;
  page_id: string;
  /** An int8multirange as text, e.g. `{[0,120),[130,200)}`. */
  seqs: string;
}

/** An object the offloader wrote (migration 0016). */
export interface StoredObjectTable {
  key: string;
  /** The UTC day of creation of the sessions whose batches it holds (its key's prefix). */
  day: string;
  bytes: number;
  created_at: CreatedAt;
  /** Its batches point at it; false until then (an orphan if it stays so). */
  committed: Generated<boolean>;
  /** Holds bytes of a deleted session: rewritten by the daily cleanup. */
  dirty: Generated<boolean>;
  /** Holds one pinned session's bytes, under `pinned/` (migration 0036). */
  pinned: Generated<boolean>;
}

/** A session's data key, wrapped by the store key `kek_id` (migration 0033). */
export interface SessionDataKeyTable {
  session_id: string;
  kek_id: string;
  wrapped: Uint8Array;
  created_at: CreatedAt;
}

export interface MarkerTable {
  id: ColumnType<number, never, never>;
  session_id: string;
  /** The session's created_at: the day partition (migration 0012). */
  session_created_at: Timestamp;
  ts: number;
  kind: string;
  data: Json;
}

/** A public link to one session (migration 0022): only the SHA-256 of its token is kept. */
export interface SessionShareTable {
  id: string;
  organization_id: string;
  session_id: string;
  token_hash: string;
  created_by_id: string | null;
  start_ms: ColumnType<number | null, number | null | undefined, never>;
  end_ms: ColumnType<number | null, number | null | undefined, never>;
  show_console: boolean;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  views: Generated<number>;
  last_viewed_at: Timestamp | null;
  created_at: CreatedAt;
}

/** A comment on a moment of a session (migration 0023). */
export interface Database extends AlertTables, CollaborationTables, HeatmapTables {
  organizations: OrganizationTable;
  users: UserTable;
  accounts: AccountTable;
  oauth_states: OAuthStateTable;
  authenticators: AuthenticatorTable;
  webauthn_challenges: WebauthnChallengeTable;
  otp_codes: OtpCodeTable;
  otp_send_counters: OtpSendCounterTable;
  invite_send_counters: InviteSendCounterTable;
  memberships: MembershipTable;
  invites: InviteTable;
  projects: ProjectTable;
  tracked_users: TrackedUserTable;
  sessions: SessionTable;
  event_batches: EventBatchTable;
  markers: MarkerTable;
  stored_objects: StoredObjectTable;
  session_data_keys: SessionDataKeyTable;
  erased_sessions: ErasedSessionTable;
  erased_tracked_users: ErasedTrackedUserTable;
  page_sequences: PageSequenceTable;
  revoked_tokens: RevokedTokenTable;
  rate_limit_counters: RateLimitCounterTable;
  session_shares: SessionShareTable;
  audit_log: AuditLogTable;
}
