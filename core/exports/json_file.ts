// An export as JSON for rrweb tools: `{ "session": {...}, "omitted": [...], "events": [...] }`,
// the events of the whole session cut as a link's are (core/shares/window_events.ts: page
// addresses to origin and path, never identify()'s event) and written batch by batch as they come.
// Network requests and custom events only when asked for; `omitted` names what the file leaves out.
import { windowEvents } from "@/core/shares/window_events.ts";
import { withPageAddresses } from "@/core/shares/addresses.ts";
import type { SessionExport } from "./export.ts";
import { EXPORT_EXTRAS, type ExportExtra } from "./schema.ts";

export async function* jsonExport(
  { session, batches }: SessionExport,
  include: readonly ExportExtra[] = [],
): AsyncGenerator<string> {
  const omitted = ["identify", ...EXPORT_EXTRAS.filter((kind) => !include.includes(kind))];
  yield `{"session":${JSON.stringify(session)},"omitted":${JSON.stringify(omitted)},"events":[`;
  const window = {
    start: -Infinity,
    end: Infinity,
    showConsole: true,
    network: include.includes("network"),
    custom: include.includes("custom"),
  };
  let first = true;
  // A batch that cannot be decoded (or whose bytes are missing) adds nothing.
  for await (const { events } of windowEvents(batches, window, withPageAddresses)) {
    for (const event of events) {
      yield (first ? "" : ",") + JSON.stringify(event);
      first = false;
    }
  }
  yield "]}\n";
}
