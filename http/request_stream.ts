// A response body read after its handler returned, still as part of its request: each pull runs
// in the request's class and counts against its share of the pool (db/connection_shares.ts).
import { bindToRequest } from "@/db/connection_shares.ts";

/** A byte stream whose `pull` and `cancel` run in the calling request's class. */
export function requestStream(
  source: Pick<UnderlyingDefaultSource<Uint8Array>, "start" | "pull" | "cancel">,
  strategy?: QueuingStrategy<Uint8Array>,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start: source.start,
    pull: source.pull && bindToRequest(source.pull),
    cancel: source.cancel && bindToRequest(source.cancel),
  }, strategy);
}

/** Text chunks as bytes, read as the client takes them (a file streamed out: an export). */
export function requestTextStream(file: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const chunks = file[Symbol.asyncIterator]();
  return requestStream({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return?.(undefined);
    },
  }, { highWaterMark: 1 });
}
