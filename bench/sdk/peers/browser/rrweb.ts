// Plain rrweb (the version of the corpus comparisons) with gzip: the lower bound of what an rrweb
// recorder needs. Batches as Playhead's defaults do (the first at 5 s, then every 60 s); the bench
// calls `__benchFlush()` at the end of the visit so the last batch is counted too.
import { record } from "rrweb";

const events: unknown[] = [];
record({ emit: (event) => void events.push(event) });

async function flush(): Promise<void> {
  if (!events.length) return;
  const json = JSON.stringify({ events: events.splice(0) });
  const body = new Blob([json]).stream().pipeThrough(new CompressionStream("gzip"));
  await fetch("/sink/rrweb/ingest", {
    method: "POST",
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    body: await new Response(body).arrayBuffer(),
  });
}
setTimeout(() => void flush(), 5_000);
setInterval(() => void flush(), 60_000);
(globalThis as unknown as { __benchFlush: () => Promise<void> }).__benchFlush = flush;
