// Opaque keyset cursors for the sessions list: base64url of JSON holding the sort, direction,
// sort key and id of the last row served, so the next page starts strictly after it.
import { z } from "zod";
import { validation } from "./errors.ts";

export type SessionSort = "date" | "duration";
export type SortDir = "asc" | "desc";

export interface SessionCursor {
  sort: SessionSort;
  dir: SortDir;
  /** date: createdAt in epoch microseconds (PostgreSQL's precision, so no tie is lost); duration: ms. */
  key: number;
  id: string;
}

const payload = z.object({
  s: z.enum(["date", "duration"]),
  d: z.enum(["asc", "desc"]),
  k: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  id: z.string().min(1).max(64),
}).strict();

export function encodeCursor(cursor: SessionCursor): string {
  const json = JSON.stringify({ s: cursor.sort, d: cursor.dir, k: cursor.key, id: cursor.id });
  return new TextEncoder().encode(json).toBase64({ alphabet: "base64url", omitPadding: true });
}

/** The cursor, or a 400 when it is not one of ours or belongs to another sort order. */
export function decodeCursor(text: string, sort: SessionSort, dir: SortDir): SessionCursor {
  let parsed: z.infer<typeof payload>;
  try {
    const bytes = Uint8Array.fromBase64(text, { alphabet: "base64url" });
    parsed = payload.parse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
  } catch {
    throw validation("invalid cursor", [{ path: "cursor", message: "malformed cursor" }]);
  }
  if (parsed.s !== sort || parsed.d !== dir) {
    throw validation("invalid cursor", [
      { path: "cursor", message: "cursor belongs to another sort order" },
    ]);
  }
  return { sort, dir, key: parsed.k, id: parsed.id };
}
