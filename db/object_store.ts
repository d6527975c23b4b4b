// The S3-compatible object store that offloaded event batches live in (EVENTS_STORE).
// aws4fetch signs plain fetch requests (SigV4): a few kB, no Node streams, so it runs on Deno
// Deploy as here; the operations needed are six plain requests, which the full AWS SDK would wrap
// in ~3 MB of code and a body-hashing layer that refuses streams on Deno.
import { createHash } from "node:crypto";
import { AwsClient } from "aws4fetch";
import type { EventsStoreConfig } from "@/config/events_store.ts";

/** How a store request ended, as the app's metrics count it. */
export type StoreOutcome = "ok" | "missing" | "client_error" | "server_error" | "failed";

/** The store did not answer (down, slow, or an error of its own): the caller retries later. */
export class StoreUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreUnavailable";
  }
}

export type StoreStatus = "ok" | "unavailable";

/** One object as a listing shows it. */
export interface StoredObjectInfo {
  key: string;
  size: number;
  lastModified: Date;
}

/** Why a sealed batch read back could not be opened (core/storage/read.ts). */
export type UnreadableReason = "decrypt" | "no_key" | "unwrap";

/** Running totals of the sealed batches' troubles, which /metrics reads (core/storage/). */
export interface SealCounts {
  unreadable: Record<UnreadableReason, number>;
  /** Uploads read back and opened before their commit, by outcome. */
  checks: Record<"ok" | "failed", number>;
  /** Uploads so far: the first and every `checkEvery`-th after it are checked. */
  uploads: number;
}

/** How long a request's outcome stands for the store's status in the health check. */
const STATUS_FRESH_MS = 30_000;

export class ObjectStore {
  readonly #client: AwsClient;
  #lastOk = 0;
  #lastFailure = 0;
  #probing: Promise<void> | null = null;
  readonly seals: SealCounts = {
    unreadable: { decrypt: 0, no_key: 0, unwrap: 0 },
    checks: { ok: 0, failed: 0 },
    uploads: 0,
  };

  /** `onRequest` hears how each request ended (the app's metrics). */
  constructor(
    readonly config: EventsStoreConfig,
    private readonly onRequest: (method: string, outcome: StoreOutcome) => void = () => {},
  ) {
    // retries: 0 — the offloader backs off by itself, and a read answers 503 at once.
    this.#client = new AwsClient({
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
      region: config.region,
      service: "s3",
      retries: 0,
    });
  }

  /** The key of a new object holding batches of sessions created on `day` (YYYY-MM-DD). */
  newKey(day: string): string {
    return `${this.dayPrefix(day)}${Date.now()}-${crypto.randomUUID()}.bin`;
  }

  /** `prefix/day/`: every object of one day of session creation, deleted whole past retention. */
  dayPrefix(day: string): string {
    return `${this.#root()}${day}/`;
  }

  /**
   * The key of a new object holding one pinned session's bytes (created on `day`): under
   * `prefix/pinned/`, outside the day prefixes and their lifecycle rule.
   */
  pinnedKey(day: string): string {
    return `${this.#root()}pinned/${day}/${Date.now()}-${crypto.randomUUID()}.bin`;
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const res = await this.#send(key, { method: "PUT", body: body as Uint8Array<ArrayBuffer> });
    await expectOk(res, `PUT ${key}`);
  }

  /** Bytes [offset, offset + length) of an object; null when the object or the range is missing. */
  async getRange(key: string, offset: number, length: number): Promise<Uint8Array | null> {
    const res = await this.#send(key, {
      headers: { Range: `bytes=${offset}-${offset + length - 1}` },
    });
    if (res.status === 404 || res.status === 416) {
      await res.body?.cancel();
      return null;
    }
    await expectOk(res, `GET ${key}`, true);
    const bytes = new Uint8Array(await res.arrayBuffer());
    // A 200 (no range support) or a short object: only an exact range is the batch.
    if (res.status !== 206 || bytes.length !== length) return null;
    return bytes;
  }

  async delete(key: string): Promise<void> {
    const res = await this.#send(key, { method: "DELETE" });
    if (res.status === 404) return void await res.body?.cancel();
    await expectOk(res, `DELETE ${key}`);
  }

  /** Keys under `prefix`, in pages of up to 1,000. */
  async *list(prefix: string): AsyncIterable<string> {
    for await (const object of this.listObjects(prefix)) yield object.key;
  }

  /** The objects under `prefix` (`""`: the app's whole prefix) with their sizes and ages. */
  async *listObjects(prefix: string = this.#root()): AsyncIterable<StoredObjectInfo> {
    for (let token: string | null = null;;) {
      const query = new URLSearchParams({ "list-type": "2", prefix });
      if (token) query.set("continuation-token", token);
      const xml = await this.#listPage(query);
      for (const [, entry] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
        yield {
          key: tags(entry, "Key")[0],
          size: Number(tags(entry, "Size")[0]),
          lastModified: new Date(tags(entry, "LastModified")[0]),
        };
      }
      token = tags(xml, "NextContinuationToken")[0] ?? null;
      if (!token || tags(xml, "IsTruncated")[0] !== "true") return;
    }
  }

  /** The day prefixes (YYYY-MM-DD) that hold objects. */
  async days(): Promise<string[]> {
    const query = new URLSearchParams({ "list-type": "2", prefix: this.#root(), delimiter: "/" });
    const xml = await this.#listPage(query);
    return tags(xml, "Prefix").map((p) => p.slice(this.#root().length).replace(/\/$/, ""))
      .filter((day) => /^\d{4}-\d{2}-\d{2}$/.test(day));
  }

  /** Creates the bucket when it does not exist (tests, a first start on an empty store). */
  async ensureBucket(): Promise<void> {
    const head = await this.#send("", { method: "HEAD" });
    if (head.ok) return;
    if (head.status !== 404) await expectOk(head, "HEAD bucket");
    const res = await this.#send("", { method: "PUT" });
    if (res.status === 409) return void await res.body?.cancel(); // created meanwhile
    await expectOk(res, "PUT bucket");
  }

  /**
   * A lifecycle rule that expires the day prefixes' objects `days` after upload: a second guard
   * behind the daily cleanup's deletion of expired days. One rule per first digit of a day
   * (`prefix/0`…`prefix/9`), so `prefix/pinned/` is outside them. false when the store does not
   * support it.
   */
  async putLifecycle(days: number): Promise<boolean> {
    const rules = [..."0123456789"].map((digit) =>
      `<Rule><ID>playhead-retention-${digit}</ID>` +
      `<Filter><Prefix>${escapeXml(this.#root())}${digit}</Prefix></Filter>` +
      `<Status>Enabled</Status><Expiration><Days>${days}</Days></Expiration></Rule>`
    );
    const body = `<LifecycleConfiguration>${rules.join("")}</LifecycleConfiguration>`;
    const res = await this.#send("?lifecycle=", {
      method: "PUT",
      body,
      headers: { "Content-MD5": createHash("md5").update(body).digest("base64") },
    });
    if (res.status === 501 || res.status === 400) {
      await res.body?.cancel();
      return false;
    }
    await expectOk(res, "PUT lifecycle");
    return true;
  }

  /** The bucket's lifecycle configuration (XML). */
  async getLifecycle(): Promise<string> {
    const res = await this.#send("?lifecycle=", {});
    await expectOk(res, "GET lifecycle", true);
    return await res.text();
  }

  /** From the last requests' outcomes; a store idle for a while is probed in the background. */
  status(): StoreStatus {
    const now = Date.now();
    if (Math.max(this.#lastOk, this.#lastFailure) < now - STATUS_FRESH_MS && !this.#probing) {
      this.#probing = this.#send("", { method: "HEAD" })
        .then((res) => res.body?.cancel())
        .catch(() => {})
        .finally(() => this.#probing = null);
    }
    return this.#lastFailure > this.#lastOk ? "unavailable" : "ok";
  }

  async #listPage(query: URLSearchParams): Promise<string> {
    const res = await this.#send(`?${query}`, {});
    await expectOk(res, "LIST", true);
    return await res.text();
  }

  #root(): string {
    return this.config.prefix ? `${this.config.prefix}/` : "";
  }

  /** One signed request to the bucket (`path` is a key, or `?query` for the bucket itself). */
  async #send(path: string, init: RequestInit): Promise<Response> {
    const url = path.startsWith("?") || path === ""
      ? `${this.config.bucketUrl}/${path}`
      : `${this.config.bucketUrl}/${path.split("/").map(encodeURIComponent).join("/")}`;
    try {
      const res = await this.#client.fetch(url, {
        ...init,
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      if (res.status >= 500) this.#lastFailure = Date.now();
      else this.#lastOk = Date.now();
      this.onRequest(init.method ?? "GET", outcomeOf(res.status));
      return res;
    } catch (error) {
      this.#lastFailure = Date.now();
      this.onRequest(init.method ?? "GET", "failed");
      throw new StoreUnavailable(`${init.method ?? "GET"} ${path}: ${String(error)}`);
    }
  }
}

function outcomeOf(status: number): StoreOutcome {
  if (status === 404 || status === 416) return "missing";
  return status >= 500 ? "server_error" : status >= 400 ? "client_error" : "ok";
}

/** Throws StoreUnavailable unless 2xx; the body is let go unless the caller reads it. */
async function expectOk(res: Response, what: string, readBody = false): Promise<void> {
  if (res.ok) {
    if (!readBody) await res.body?.cancel();
    return;
  }
  const text = await res.text().catch(() => "");
  throw new StoreUnavailable(`${what}: ${res.status} ${text.slice(0, 200)}`);
}

function tags(xml: string, name: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))) {
    out.push(unescapeXml(m[1]));
  }
  return out;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const unescapeXml = (text: string) =>
  text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'").replace(/&amp;/g, "&");
