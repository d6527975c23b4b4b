// Row types of the sign-in and throttling tables (OAuth state, passkeys, one-time codes, revoked
// tokens, rate-limit counters), part of `Database` in db/schema.ts.
import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** An OAuth sign-in in flight (migration 0006); the callback deletes it. */
export interface OAuthStateTable {
  state_hash: string;
  provider: string;
  code_verifier: string;
  nonce: string | null;
  callback_url: string;
  link_user_id: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface AuthenticatorTable {
  credential_id: string;
  user_id: string;
  public_key: Uint8Array;
  counter: Generated<number>;
  credential_device_type: string;
  credential_backed_up: Generated<boolean>;
  transports: Generated<string[]>;
  name: string;
  created_at: CreatedAt;
}

export interface WebauthnChallengeTable {
  id: string;
  purpose: "register" | "authenticate";
  /** The signed-in user a registration is for; null for sign-in. */
  user_id: string | null;
  challenge: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface OtpCodeTable {
  id: string;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Timestamp;
  consumed_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface OtpSendCounterTable {
  email: string;
  day: ColumnType<Date, string, string>;
  count: Generated<number>;
  last_sent_at: Timestamp;
}

export interface InviteSendCounterTable {
  user_id: string;
  day: ColumnType<Date, string, string>;
  count: Generated<number>;
}

/** A session token signed out before its expiry (its `jti`), until that expiry. */
export interface RevokedTokenTable {
  token_id: string;
  expires_at: Timestamp;
}

/** Hits of one throttle bucket (e.g. "otp:addr:<ip>") in one fixed window. */
export interface RateLimitCounterTable {
  bucket: string;
  window_start: Timestamp;
  count: number;
}
