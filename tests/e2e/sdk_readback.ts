// Reads what the service stored for a session: decoded event batches, markers, the session row.

import { gunzipSync } from "node:zlib";
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface StoredEvent {
  type: number;
  data: Record<string, unknown>;
  timestamp: number;
}

/** gzip of one member (a stored batch) or several (the SDK's request bodies, sdk/send/transport.ts). */
export function gunzipBytes(bytes: Uint8Array): Promise<Uint8Array> {
  return Promise.resolve(new Uint8Array(gunzipSync(bytes)));
}

/** Every stored batch of the session, decompressed, in the replay order (first_ts, then id). */
export async function storedBatches(
  db: Kysely<Database>,
  projectId: string,
  sessionId: string,
): Promise<{ json: string; events: StoredEvent[] }[]> {
  const rows = await db.selectFrom("event_batches").select(["data", "first_ts", "id"])
    .where("project_id", "=", projectId).where("session_external_id", "=", sessionId)
    .orderBy("first_ts").orderBy("id").execute();
  const out = [];
  for (const row of rows) {
    const json = new TextDecoder().decode(await gunzipBytes(row.data!));
    out.push({ json, events: JSON.parse(json) as StoredEvent[] });
  }
  return out;
}

/** The session's events as the replayer gets them: concatenated and sorted by timestamp. */
export async function storedEvents(
  db: Kysely<Database>,
  projectId: string,
  sessionId: string,
): Promise<StoredEvent[]> {
  const batches = await storedBatches(db, projectId, sessionId);
  return batches.flatMap((b) => b.events).sort((a, b) => a.timestamp - b.timestamp);
}

export async function sessionRow(db: Kysely<Database>, projectId: string, sessionId: string) {
  return await db.selectFrom("sessions").selectAll()
    .where("project_id", "=", projectId).where("external_id", "=", sessionId)
    .executeTakeFirst() ?? null;
}

export async function sessionMarkers(db: Kysely<Database>, projectId: string, sessionId: string) {
  const session = await sessionRow(db, projectId, sessionId);
  if (!session) return [];
  return await db.selectFrom("markers").select(["ts", "kind", "data"])
    .where("session_id", "=", session.id).orderBy("ts").orderBy("id").execute();
}

/** Custom events (type 5) with the given tag. */
export function customEvents(events: StoredEvent[], tag: string): StoredEvent[] {
  return events.filter((e) => e.type === 5 && e.data.tag === tag);
}
