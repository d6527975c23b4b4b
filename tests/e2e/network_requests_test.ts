// Browser tests of how the network bundle records a page's own requests (docs/decisions.md
// "Network capture"), the served SDK in Chromium against the test pages' server: an XHR to an
// address with a user and password works as it does without the SDK, and the password reaches no
// stored event or marker; a fetch answered 500 whose body comes late is recorded with its status
// and its real duration (the server answers when the test says).
import assert from "node:assert/strict";
import { networkColumns } from "@/core/projects/recording.ts";
import { DEFAULT_NETWORK } from "@/core/projects/network_limits.ts";
import { networkEntries, type NetworkEntry } from "@/player/ui/network_entries.ts";
import {
  flushUntil,
  networkBundleRunning,
  sdkPage,
  settingsRead,
  sleep,
  startHarness,
  waitFor,
  withPh,
} from "./sdk_harness.ts";
import { gunzipBytes, storedEvents } from "./sdk_readback.ts";

const APP_JS = `
const credUrl = location.origin.replace("http://", "http://user:pass@") + "/api/cred";
window.xhrCred = () => new Promise((resolve) => {
  try {
    const x = new XMLHttpRequest();
    x.open("GET", credUrl);
    x.onloadend = () => resolve({ status: x.status, text: x.responseText });
    x.send();
  } catch (e) {
    resolve({ thrown: e.name });
  }
});
// What a page does without catching: its errors name the address.
window.credErrors = () => {
  fetch(credUrl);
  console.error("could not load " + credUrl);
  setTimeout(() => {
    const x = new XMLHttpRequest();
    x.open("GET", credUrl);
    x.send();
  });
};
window.held = () => { window.heldStatus = fetch("/api/held").then((r) => r.text().then(() => r.status)); };`;

/** A response whose headers and body each wait for the test's word. */
function heldResponse() {
  const arrived = Promise.withResolvers<void>();
  const headers = Promise.withResolvers<void>();
  const body = Promise.withResolvers<void>();
  const respond = async () => {
    arrived.resolve();
    await headers.promise;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        await body.promise;
        controller.enqueue(new TextEncoder().encode('{"error":"down"}'));
        controller.close();
      },
    });
    return new Response(stream, { status: 500, headers: { "content-type": "application/json" } });
  };
  return { respond, arrived: arrived.promise, headers: headers.resolve, body: body.resolve };
}

Deno.test("network requests e2e: an XHR to user:pass@ works as without the SDK and no password is stored; a late 500 keeps its status and duration", async (t) => {
  await using h = await startHarness();
  const project = await h.server.createProject();
  await h.server.db.updateTable("projects")
    .set(networkColumns({ ...DEFAULT_NETWORK, enabled: true }))
    .where("id", "=", project.id).execute();
  h.file("/app.js", APP_JS, "text/javascript");
  h.route("/api/cred", () => new Response("ok"));
  const held = heldResponse();
  h.route("/api/held", held.respond);
  const body = `<h1>Shop</h1><script src="/app.js"></script>`;
  h.page("/plain", `<!doctype html><html><body>${body}</body></html>`);
  h.page("/shop", sdkPage(h, project.key, { flushInterval: 600_000 }, body));

  const visit = async () => {
    const { context, page } = await h.context();
    await page.goto(`${h.pagesUrl}/shop`);
    await settingsRead(page);
    await networkBundleRunning(page);
    return { context, page, sessionId: await withPh(page, (ph) => ph.sessionId!) };
  };

  await t.step(
    "an XHR to an address with a user and password answers as it does unrecorded",
    async () => {
      const plain = await h.context();
      await plain.page.goto(`${h.pagesUrl}/plain`);
      const unrecorded = await plain.page.evaluate("xhrCred()");
      await plain.context.close();

      const { context, page, sessionId } = await visit();
      assert.deepEqual(await page.evaluate("xhrCred()"), unrecorded);
      assert.deepEqual(unrecorded, { status: 200, text: "ok" });
      await page.evaluate("credErrors()");
      await flushUntil(h, page, "could not load");
      await context.close();
      const db = h.server.db;
      const session = await db.selectFrom("sessions").selectAll()
        .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
      const markersOf = () =>
        db.selectFrom("markers").select(["kind", "data"]).where("session_id", "=", session.id)
          .execute();
      await waitFor(
        async () => JSON.stringify(await markersOf()).includes("could not load"),
        10_000,
        "the error marker",
      );

      // Neither what left the browser nor what was stored holds the password.
      const wire = h.seen.map((r) => r.text).join("\n");
      assert.ok(!wire.includes("pass"), "the password never left the browser");
      const batches = await db.selectFrom("event_batches").select("data")
        .where("session_external_id", "=", sessionId).execute();
      const markers = await markersOf();
      const stored = [
        ...await Promise.all(
          batches.map(async (b) => new TextDecoder().decode(await gunzipBytes(b.data!))),
        ),
        JSON.stringify(session),
        JSON.stringify(markers),
      ].join("\n");
      assert.ok(!stored.includes("pass"), "the password is not stored");
      const errors = markers.filter((m) => m.kind === "error")
        .map((m) => (m.data as { message: string }).message);
      assert.ok(
        errors.includes(`could not load ${h.pagesUrl}/api/cred`),
        `the error is kept, its address without the password: ${JSON.stringify(errors)}`,
      );
    },
  );

  await t.step(
    "a fetch answered 500 whose body comes late is listed with 500 and its whole duration",
    async () => {
      const { context, page, sessionId } = await visit();
      await page.evaluate("held()");
      await held.arrived;
      // The answer's headers after 300 ms, its body 3 s later: past the ~2.75 s for which rrweb's
      // plugin looked for the request's timing.
      await sleep(300);
      held.headers();
      await sleep(3_000);
      held.body();
      assert.equal(await page.evaluate("window.heldStatus"), 500);
      await flushUntil(h, page, "/api/held");
      await context.close();

      // The Network tab's rows, read from the stored events as the player reads them.
      const heldRows = async () => {
        const session = await h.server.db.selectFrom("sessions").select("started_at")
          .where("external_id", "=", sessionId).executeTakeFirst();
        if (!session) return [];
        const events = await storedEvents(h.server.db, project.id, sessionId);
        return networkEntries(events, session.started_at.getTime())
          .filter((r) => r.path === "/api/held");
      };
      const listed = await waitFor(
        async () => {
          const rows = await heldRows();
          return rows.length ? rows : undefined;
        },
        10_000,
        "the held request stored",
      ) as NetworkEntry[];
      assert.equal(listed.length, 1, JSON.stringify(listed));
      assert.equal(listed[0].method, "GET");
      assert.equal(listed[0].status, 500);
      assert.ok(listed[0].failed);
      assert.ok(listed[0].durationMs >= 3_300, `${listed[0].durationMs} ms`);
      const marker = await h.server.db.selectFrom("markers").select("data")
        .where("kind", "=", "network_error").executeTakeFirstOrThrow();
      assert.equal((marker.data as { status: number }).status, 500);
      assert.ok((marker.data as { durationMs: number }).durationMs >= 3_300);
    },
  );
});
