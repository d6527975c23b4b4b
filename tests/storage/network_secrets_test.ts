// Network capture with recordings in an object store (docs/decisions.md "Network capture"): the
// served SDK in Chromium records a login that sends a bearer token and a password and gets a 500,
// with bodies on; once the offloader has moved the batches into the store, neither the store's
// objects nor the database hold the token, the password or the word "Bearer".
import assert from "node:assert/strict";
import { networkColumns } from "@/core/projects/recording.ts";
import { DEFAULT_NETWORK } from "@/core/projects/network_limits.ts";
import { offloadOnce } from "@/core/storage/offload.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { gunzipBytes } from "@/tests/e2e/sdk_readback.ts";
import {
  flushUntil,
  networkBundleRunning,
  sdkPage,
  settingsRead,
  startHarness,
} from "@/tests/e2e/sdk_harness.ts";
import { openStored } from "./world.ts";

const ignore = NO_S3 !== null;
if (NO_S3) console.warn(`tests/storage: ignored: ${NO_S3}`);
const SECRETS = ["S3CR3T", "hunter2", "Bearer"];

Deno.test({
  name: "network capture: the store's objects and the database hold no secret of a recorded login",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using h = await startHarness({ env: storeEnv(s3.s3) });
    const store = h.server.deps.store!;
    await store.ensureBucket();
    const project = await h.server.createProject();
    await h.server.db.updateTable("projects")
      .set(networkColumns({
        ...DEFAULT_NETWORK,
        enabled: true,
        headers: ["content-type", "authorization"],
        bodyUrls: ["/api/**"],
      }))
      .where("id", "=", project.id).execute();
    h.route("/api/login", () => Response.json({ token: "S3CR3T" }, { status: 500 }));
    h.file(
      "/app.js",
      `window.login = () => fetch("/api/login", { method: "POST",
        headers: { Authorization: "Bearer S3CR3T" },
        body: '{"user":"a","password":"hunter2"}' }).then((r) => r.status);`,
      "text/javascript",
    );
    h.page(
      "/shop",
      sdkPage(h, project.key, { flushInterval: 600_000 }, `<script src="/app.js"></script>`),
    );
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/shop`);
    await settingsRead(page);
    await networkBundleRunning(page);
    assert.equal(await page.evaluate("login()"), 500);
    await flushUntil(h, page, "/api/login");

    await offloadOnce({ db: h.server.deps.db, store });
    const batches = await h.server.db.selectFrom("event_batches")
      .select(["id", "project_id", "session_external_id", "data", "object_key"])
      .select(["object_offset", "object_length"])
      .where("project_id", "=", project.id).execute();
    assert.ok(batches.length > 0 && batches.every((b) => b.object_key && b.data === null));
    const objects = await h.server.db.selectFrom("stored_objects").select(["key", "bytes"])
      .execute();
    const stored: string[] = [];
    for (const object of objects) {
      const bytes = (await store.getRange(object.key, 0, object.bytes))!;
      stored.push(new TextDecoder().decode(bytes)); // the object as it is
    }
    for (const b of batches) {
      const gzip = await openStored(h.server.db, store, b); // each batch opened and unpacked
      stored.push(new TextDecoder().decode(await gunzipBytes(gzip)));
    }
    const text = stored.join("\n");
    // the body is a string inside the event's JSON: its quotes escaped
    assert.ok(text.includes("/api/login"), "the request is stored");
    assert.ok(text.includes('\\"password\\":\\"[redacted]\\"'), "its body, redacted");
    for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} is not stored`);
    const markers = await h.server.db.selectFrom("markers").select("data").execute();
    const sessions = await h.server.db.selectFrom("sessions").selectAll().execute();
    const rows = JSON.stringify([markers, sessions]);
    for (const secret of SECRETS) assert.ok(!rows.includes(secret), `${secret} is not in a row`);
  },
});
