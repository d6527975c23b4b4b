// An export as JSON for rrweb tools: `{ "session": {...}, "omitted": [...], "events": [...] }`,
// the events of the whole session cut as a link's are (core/shares/window_events.ts: page
// addresses to origin and path, never identify()'s event) in the cut worker
// (core/shares/cut_job.ts "json") and written batch by batch as they come. Network requests and
// custom events only when asked for; `omitted` names what the file leaves out.
import { cutInputs, type CutPool } from "@/core/shares/cut_pool.ts";
import { onEnd } from "@/core/on_end.ts";
import type { SessionExport } from "./export.ts";
import { EXPORT_EXTRAS, type ExportExtra } from "./schema.ts";

/** The file as it is written; its cut is admitted now (503 while the worker is full). */
export function jsonExport(
  { session, batches }: SessionExport,
  include: readonly ExportExtra[],
  cuts: CutPool,
): AsyncIterable<string> {
  const job = {
    kind: "json",
    network: include.includes("network"),
    custom: include.includes("custom"),
  } as const;
  const events = cuts.json(job, cutInputs(batches))[Symbol.asyncIterator]();
  return onEnd(written(session, include, events), () => void events.return?.());
}

async function* written(
  session: SessionExport["session"],
  include: readonly ExportExtra[],
  events: AsyncIterator<string>,
): AsyncGenerator<string> {
  const omitted = ["identify", ...EXPORT_EXTRAS.filter((kind) => !include.includes(kind))];
  yield `{"session":${JSON.stringify(session)},"omitted":${JSON.stringify(omitted)},"events":[`;
  // A batch that cannot be decoded (or whose bytes are missing) adds nothing.
  for (let next = await events.next(), first = true; !next.done; next = await events.next()) {
    yield (first ? "" : ",") + next.value;
    first = false;
  }
  yield "]}\n";
}
