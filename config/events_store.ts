// The optional object store of recordings: EVENTS_STORE and the AWS_* variables, read into where
// offloaded batches go (db/object_store.ts) and how often; EVENTS_STORE_KEY*, the keys that wrap
// each session's data key (core/storage/keys.ts).
import { createHash } from "node:crypto";
import { type Env, stripSlash } from "./env.ts";

/** A key-encryption key and its id (a hash of it, stored beside each key it wrapped). */
export interface StoreKey {
  id: string;
  raw: Uint8Array;
}

export interface StoreKeys {
  /** Wraps every new data key (EVENTS_STORE_KEY). */
  current: StoreKey;
  /** Still unwrap the data keys they wrapped, until re-wrapped (EVENTS_STORE_KEY_PREVIOUS). */
  previous: StoreKey[];
  /** No EVENTS_STORE_KEY outside production: a fixed key derived from a public label. */
  development: boolean;
}

/** EVENTS_STORE and the AWS_* variables: where offloaded batches go (core/storage/). */
export interface EventsStoreConfig {
  bucket: string;
  /** Key prefix without slashes at either end; "" for the bucket's root. */
  prefix: string;
  /** Path-style base URL of the bucket (custom endpoint), or AWS's virtual-hosted one. */
  bucketUrl: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A flush every this many ms, or sooner once this many bytes are staged. */
  flushMs: number;
  flushBytes: number;
  /** One store request's time limit: past it the store counts as down. */
  timeoutMs: number;
  keys: StoreKeys;
  /** One upload in this many is read back and opened before its commit. */
  checkEvery: number;
}

/** null without a store (or its keys): every recording stays in PostgreSQL. */
export function eventsStoreConfig(e: Env): EventsStoreConfig | null {
  if (!e.EVENTS_STORE || !e.AWS_ACCESS_KEY_ID || !e.AWS_SECRET_ACCESS_KEY) return null;
  const [bucket, ...rest] = e.EVENTS_STORE.slice("s3://".length).split("/");
  const endpoint = e.AWS_ENDPOINT_URL_S3;
  return {
    bucket,
    prefix: rest.join("/").replace(/^\/+|\/+$/g, ""),
    // A custom endpoint (Ceph, MinIO, R2…) is addressed path-style; AWS itself virtual-hosted.
    bucketUrl: endpoint
      ? `${stripSlash(endpoint)}/${bucket}`
      : `https://${bucket}.s3.${e.AWS_REGION}.amazonaws.com`,
    region: e.AWS_REGION,
    accessKeyId: e.AWS_ACCESS_KEY_ID,
    secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
    flushMs: e.EVENTS_STORE_FLUSH_MS,
    flushBytes: e.EVENTS_STORE_FLUSH_BYTES,
    timeoutMs: e.EVENTS_STORE_TIMEOUT_MS,
    keys: storeKeys(e),
    checkEvery: e.EVENTS_STORE_CHECK_EVERY,
  };
}

/** The keys as validated (32 bytes each); production requires EVENTS_STORE_KEY (config/rules.ts). */
function storeKeys(e: Env): StoreKeys {
  const key = (raw: Uint8Array): StoreKey => ({
    id: createHash("sha256").update("playhead events store key id\0").update(raw).digest("hex")
      .slice(0, 16),
    raw,
  });
  const current = e.EVENTS_STORE_KEY
    ? Uint8Array.fromBase64(e.EVENTS_STORE_KEY)
    : new Uint8Array(createHash("sha256").update("playhead development events store key").digest());
  return {
    current: key(current),
    previous: e.EVENTS_STORE_KEY_PREVIOUS.map((text) => key(Uint8Array.fromBase64(text))),
    development: !e.EVENTS_STORE_KEY,
  };
}
