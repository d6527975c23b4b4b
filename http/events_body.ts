// The events answer `{ batches: [...], nextCursor: null }` written one batch at a time as the
// client takes it: the dashboard's events endpoint (api/sessions/) and a public link's
// (routes/s/) send the same shape to the same player.
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import { requestStream } from "./request_stream.ts";

export const EVENTS_HEADERS = { "Content-Type": "application/json; charset=UTF-8" };

export function eventsBody(batches: AsyncIterable<EventBatchOut>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let first = true;
  return requestStream({
    start(controller) {
      controller.enqueue(encoder.encode('{"batches":['));
    },
    // The batches are read as the client takes them, after the handler returned.
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode('],"nextCursor":null}'));
        controller.close();
        return;
      }
      // Base64 needs no escaping: the batch's data goes out as it is, not copied into a JSON string.
      const { data, ...fields } = next.value;
      const head = JSON.stringify(fields).slice(0, -1) + ',"data":"';
      controller.enqueue(encoder.encode((first ? "" : ",") + head));
      controller.enqueue(encoder.encode(data));
      controller.enqueue(encoder.encode('"}'));
      first = false;
    },
    async cancel() {
      await iterator.return?.();
    },
  }, { highWaterMark: 1 });
}
