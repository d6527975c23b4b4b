// The optional object store of recordings: EVENTS_STORE and the AWS_* variables, read into where
// offloaded batches go (db/object_store.ts) and how often.
import { type Env, stripSlash } from "./env.ts";

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
  };
}
