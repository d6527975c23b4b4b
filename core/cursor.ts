// Opaque keyset cursors for every list (docs/decisions.md "Common API rules"): base64url of JSON
// with the order they were made for (e.g. "date:desc"), the last row's sort key (a number, or null
// where a row has none, such as a tracked user with no sessions yet) and its id.
import { z } from "zod";
import { validation } from "./errors.ts";

export interface Cursor {
  /** The order the cursor was made for; another order's cursor is a 400. */
  order: string;
  key: number | null;
  id: string;
}

const payload = z.object({
  o: z.string().min(1).max(40),
  k: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).nullable(),
  id: z.string().min(1).max(64),
}).strict();

const malformed = () =>
  validation("invalid cursor", [{ path: "cursor", message: "malformed cursor" }]);

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
    throw malformed();
  }
  if (parsed.o !== order) {
    throw validation("invalid cursor", [
      { path: "cursor", message: "cursor belongs to another sort order" },
    ]);
  }
  return { order, key: parsed.k, id: parsed.id };
}

/** For lists whose rows always have a key: a cursor without one is as malformed as any other. */
export function decodeKeyedCursor(text: string, order: string): { key: number; id: string } {
  const { key, id } = decodeCursor(text, order);
  if (key === null) throw malformed();
  return { key, id };
}
