import { locks } from "@/tests/helpers/sdk_journal_world.ts";
import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { EventType } from "@rrweb/types";
import { Flusher } from "@/sdk/send/flusher.ts";
import { Transport } from "@/sdk/send/transport.ts";
import type { RecordedEvent, SessionMetadata } from "@/sdk/types.ts";
import { FakeStorage, scriptedDeps } from "@/tests/helpers/sdk_doubles.ts";
import { allEntries, deleteEntry } from "./journal_store.ts";
import { PageJournal } from "./page_journal.ts";
import { recoverOrphans } from "./recovery.ts";

const PROJECT = { apiKey: "sp_0123456789abcdef0123456789abcdef", endpoint: "https://svc.test" };
const START = 1_800_000_000_000;
const METADATA = { url: "https://shop.test/" } as SessionMetadata;
const load = () => import("@/sdk/lazy/journal.ts");

type Clock = ReturnType<typeof FakeTimers.install>;
/** A controlled clock at START: timers, intervals and Date. */
const install = (): Clock =>
  FakeTimers.install({
    now: START,
    toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"],
  });

/** A page recording an event every 100 ms on a controlled clock, its service never answering. */
function recordingPage(clock: Clock, script: number[] = []) {
  const { deps, sent } = scriptedDeps(script);
  const flusher = new Flusher({
    sessionId: "killed-session",
    batchSize: 10_000,
    hold: false,
    metadata: () => METADATA,
    gzipSync: () => null,
    park: () => {},
  }, new Transport(PROJECT, deps));
  const journal = new PageJournal(PROJECT, new FakeStorage(), load);
  const session = { sessionId: "killed-session", metadata: () => METADATA, kept: () => [] };
  journal.open(() => journal.write(flusher, false, { ...session, keptRevision: 0 }));
  /** Records until `ms` after the start: an event at each 100 ms, its `at` that moment. */
  const until = async (ms: number) => {
    for (let at = Math.ceil((clock.now - START) / 100) * 100; at <= ms; at += 100) {
      await clock.tickAsync(START + at - clock.now);
      flusher.add({ type: EventType.Custom, data: { at }, timestamp: clock.now } as RecordedEvent);
    }
    await clock.tickAsync(START + ms - clock.now);
  };
  return { journal, flusher, until, sent };
}

/** What the next page of the site sends of what the killed one left: each event's `at`. */
async function recovered(): Promise<number[]> {
  const { deps, sent } = scriptedDeps();
  const own = { ...PROJECT, page: "next-page", sessionId: "next-session" };
  await recoverOrphans(new Transport(PROJECT, deps), own, () => {});
  return sent.flatMap((r) =>
    (r.json.events as RecordedEvent[]).map((e) => (e.data as { at: number }).at)
  );
}

Deno.test("page journal: a page killed at any moment loses at most its last 2 s", async () => {
  const moments = [...Array(121).keys()].map((i) => i * 50); // 0 to 6 s, every 50 ms
  moments.push(1_999, 2_001, 3_999, 4_001, 5_999);
  for (const killedAt of moments) {
    const clock = install();
    const page = recordingPage(clock);
    await page.until(killedAt);
    // Killed: its timers never run again and its lock is free. The writes it had begun finish
    // (IndexedDB runs them in order, before the next page's read).
    clock.uninstall();
    locks.kill(`playhead:${page.journal.page}`);
    const ats = await recovered();
    const older = [...Array(Math.floor(killedAt / 100) + 1).keys()].map((i) => i * 100)
      .filter((at) => at < killedAt - 2_000);
    assert.deepEqual(ats.slice(0, older.length), older, `killed at ${killedAt} ms`);
    assert.deepEqual(ats, [...ats].sort((a, b) => a - b), "in order");
    assert.equal(new Set(ats).size, ats.length, "each once");
    assert.deepEqual(await allEntries(), [], `the entry is deleted once sent (${killedAt})`);
  }
});

Deno.test("page journal: once the service acknowledged its events, the page's entry is deleted", async () => {
  const clock = install();
  try {
    const page = recordingPage(clock);
    await page.until(2_500); // written at 2 s
    assert.equal((await allEntries()).length, 1);
    await page.flusher.flush(); // 204: acknowledged
    assert.equal((await allEntries()).length, 1, "until the next write");
    await clock.tickAsync(START + 4_000 - clock.now); // written again at 4 s: nothing to keep
    assert.deepEqual(await allEntries(), []);
  } finally {
    clock.uninstall();
    for (const e of await allEntries()) await deleteEntry(e.page);
  }
});
