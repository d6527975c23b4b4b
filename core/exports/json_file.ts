// An export as JSON for rrweb tools: `{ "session": {...}, "events": [...] }`, the events decoded
// from each stored batch in replay order and written as they come.
import { decodeBatch } from "@/player/decode/decode.ts";
import type { SessionExport } from "./export.ts";

/** identify()'s event holds the tracked user's traits: the file is made to be handed on. */
const isIdentity = (event: { type: number; data: unknown }) =>
  event.type === 5 && (event.data as { tag?: unknown } | null)?.tag === "service:identity";

export async function* jsonExport({ session, batches }: SessionExport): AsyncGenerator<string> {
  yield `{"session":${JSON.stringify(session)},"events":[`;
  let first = true;
  for await (const batch of batches) {
    // A batch that cannot be decoded (or whose bytes are missing) adds nothing.
    const events = (await decodeBatch(batch.data).catch(() => [])).filter((e) => !isIdentity(e));
    for (const event of events) {
      yield (first ? "" : ",") + JSON.stringify(event);
      first = false;
    }
  }
  yield "]}\n";
}
