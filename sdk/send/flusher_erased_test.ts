// The flusher after a 410 (docs/decisions.md "Erasure"): the session was erased, so nothing more
// is sent for it, neither by a later flush nor at unload; a 400 (or 409, 413) still lets later
// events go.
import assert from "node:assert/strict";
import { Flusher } from "./flusher.ts";
import { Transport } from "./transport.ts";
import { events, scriptedDeps } from "@/tests/helpers/sdk_doubles.ts";

const CONFIG = { endpoint: "http://svc.test", apiKey: "sp_0123456789abcdef0123456789abcdef" };

function setup(script: number[]) {
  const { deps, sent } = scriptedDeps(script);
  const parked: unknown[] = [];
  const flusher = new Flusher({
    sessionId: "s1",
    batchSize: 2000,
    hold: false,
    metadata: () => ({
      url: "http://app.test/",
      referrer: "",
      userAgent: "test",
      screenWidth: 1,
      screenHeight: 1,
      language: "en",
    }),
    gzipSync: () => null,
    park: (batches) => parked.push(batches),
  }, new Transport(CONFIG, deps));
  return { flusher, sent, parked };
}

Deno.test("flusher: a 410 ends the session's sending: later flushes and unload send nothing", async () => {
  for (const [status, stops] of [[410, true], [400, false], [409, false], [413, false]] as const) {
    const { flusher, sent, parked } = setup([status, 204, 204]);
    for (const e of events(3)) flusher.add(e);
    await flusher.flush();
    assert.equal(sent.length, 1);
    for (const e of events(3, 3)) flusher.add(e);
    await flusher.flush();
    flusher.hide(true);
    await Promise.resolve();
    const after = sent.length - 1 + parked.length;
    assert.equal(after === 0, stops, `after ${status}: ${after} more requests or parked`);
  }
});
