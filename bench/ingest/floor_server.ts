// The floor of an ingest request on this stack, for bench/ingest/floor.ts: the same HTTP server
// (node:http under Deno, as serve.ts), one inflation of the body, strict UTF-8 and JSON.parse of
// it, and one INSERT of its gzip bytes through the same driver (postgres.js) — what any ingest must
// do, and nothing of the service's own (routing, keys, validation, markers, shares, budgets).
// Started by the benchmark with DATABASE_URL and PORT.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import { gunzipSync } from "node:zlib";
import postgres from "postgres";

const sql = postgres(Deno.env.get("DATABASE_URL")!, { max: 10, onnotice: () => {} });
await sql`CREATE TABLE IF NOT EXISTS floor_batches (
  id bigserial PRIMARY KEY, session_id text NOT NULL, data bytea NOT NULL,
  events integer NOT NULL, first_ts bigint NOT NULL, last_ts bigint NOT NULL)`;
const decoder = new TextDecoder("utf-8", { fatal: true });

async function store(gzip: Uint8Array): Promise<void> {
  const body = JSON.parse(decoder.decode(gunzipSync(gzip)));
  const events = body.events as { timestamp: number }[];
  await sql`INSERT INTO floor_batches (session_id, data, events, first_ts, last_ts)
    VALUES (${body.sessionId}, ${gzip}, ${events.length}, ${events[0].timestamp},
      ${events[events.length - 1].timestamp})`;
}

createServer((req, res) => {
  const parts: Uint8Array[] = [];
  req.on("data", (part: Uint8Array) => parts.push(part));
  req.on("end", () => {
    const answer = req.method === "POST" ? store(Buffer.concat(parts)) : Promise.resolve();
    answer.then(() => res.writeHead(req.method === "POST" ? 204 : 200).end())
      .catch((error) => res.writeHead(500).end(String(error)));
  });
}).listen(Number(Deno.env.get("PORT")), "127.0.0.1");
