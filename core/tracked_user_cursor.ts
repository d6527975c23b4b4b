// Opaque keyset cursors for the tracked-user lists: base64url of JSON with the order they belong
// to, the last row's sort key (a number, or null for "no sessions yet") and its id.
import { z } from "zod";
import { validation } from "./errors.ts";

export interface Cursor {
  /** The order the cursor was made for, e.g. "last-seen:desc"; another order's cursor is a 400. */
  order: string;
  key: number | null;
  id: string;
}

const payload = z.object({
  o: z.string().min(1).max(40),
  k: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).nullable(),
  id: z.string().min(1).max(64),
}).strict();

export function encodeCursor(cursor: Cursor): string {
  const json = JSON.stringify({ o: cursor.order, k: cursor.key, id: cursor.id });
  return new TextEncoder().encode(json).toBase64({ alphabet: "base64url", omitPadding: true });
}

/** The cursor, or a 400 when it is not one of ours or was made for another order. */
export function decodeCursor(text: string, order: string): Cursor {
  let parsed: z.infer<typeof payload>;
  try {
    const bytes = Uint8Array.fromBase64(text, { alphabet: "base64url" });
    parsed = payload.parse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
  } catch {
    throw validation("invalid cursor", [{ path: "cursor", message: "malformed cursor" }]);
  }
  if (parsed.o !== order) {
    throw validation("invalid cursor", [
      { path: "cursor", message: "cursor belongs to another sort order" },
    ]);
  }
  return { order, key: parsed.k, id: parsed.id };
}
