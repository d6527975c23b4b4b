// What an export may cost the server: its batches are decoded and cut in the cut worker, never on
// the main thread, and one account writes at most MAX_EXPORTS_PER_ACCOUNT files at once (429 +
// Retry-After past it), each held until its file has been sent or given up. Files are held in
// flight by answers whose bodies the test has not read.
import assert from "node:assert/strict";
import { EXPORT_RETRY_SECONDS, MAX_EXPORTS_PER_ACCOUNT } from "@/http/account_limit.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { sharesWorld, shopEvents } from "@/tests/helpers/shares_world.ts";

Deno.test("export: an account writes at most its files at once; one more is 429 with Retry-After until one is sent", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const viewer = await w.member("VIEWER");
  const other = await w.member("VIEWER");
  const path = `/api/sessions/${w.sessionId}/export?format=json`;
  // A file that could not be written gives its place back at once.
  for (let n = 0; n <= MAX_EXPORTS_PER_ACCOUNT; n++) {
    const missing = await w.api("GET", `/api/sessions/nope${n}/export?format=json`, viewer.cookie);
    assert.equal(missing.status, 404);
    await missing.body?.cancel();
  }
  // Below the limit, then at it: both written.
  const held: Response[] = [];
  for (let n = 0; n < MAX_EXPORTS_PER_ACCOUNT; n++) {
    const res = await w.api("GET", path, viewer.cookie);
    assert.equal(res.status, 200, `export ${n + 1} of ${MAX_EXPORTS_PER_ACCOUNT}`);
    held.push(res);
  }
  // One more: refused at once, with how long to wait.
  const refused = await w.api("GET", path, viewer.cookie);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get("retry-after"), String(EXPORT_RETRY_SECONDS));
  const body = await refused.json();
  assert.equal(body.kind, "rate_limited");
  assert.match(body.message, /exports of this account/);
  // Another account is served meanwhile.
  const others = await w.api("GET", path, other.cookie);
  assert.equal(others.status, 200);
  await others.body?.cancel();
  // One file read to its end gives its place back; so does one given up.
  assert.equal(JSON.parse(await held.pop()!.text()).session.id, w.sessionId);
  const again = await w.api("GET", path, viewer.cookie);
  assert.equal(again.status, 200);
  held.push(again);
  assert.equal((await w.api("GET", path, viewer.cookie)).status, 429);
  await held.pop()!.body?.cancel();
  const last = await w.api("GET", path, viewer.cookie);
  assert.equal(last.status, 200);
  await last.body?.cancel();
  for (const res of held) await res.body?.cancel();
  // A HEAD's file is never written: its place comes back at once.
  for (let n = 0; n <= MAX_EXPORTS_PER_ACCOUNT; n++) {
    const head = await w.api("HEAD", path, viewer.cookie);
    assert.equal(head.status, 200, `HEAD ${n + 1}`);
  }
  assert.equal(t.deps.cuts.running, 0);
});

Deno.test("export: both formats are decoded and cut in the cut worker, the HTML file's two readings too", async () => {
  await using t = await createTestApp();
  const w = await sharesWorld(t);
  const json = await w.api("GET", `/api/sessions/${w.sessionId}/export?format=json`);
  assert.equal(json.status, 200);
  const expected = shopEvents().flat().filter((e) => e.type !== 5); // identify() is never in it
  assert.equal(JSON.parse(await json.text()).events.length, expected.length);
  // The session's five stored batches were handed to the worker; none was decoded here.
  assert.equal(t.deps.cuts.decoded, 5);
  assert.equal(t.deps.cuts.started, 1);
  const html = await w.api("GET", `/api/sessions/${w.sessionId}/export?format=html`);
  assert.equal(html.status, 200);
  // Read until its first batch is written: the first reading has given its place to the second.
  const reader = html.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  for (let n = 0; n < 1_000 && !text.includes("data-batch="); n++) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += chunk.value;
  }
  assert.equal(t.deps.cuts.running, 1, "one cut at a time for one file");
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    text += chunk.value;
  }
  assert.equal(text.match(/<script type="application\/octet-stream" data-batch=/g)?.length, 5);
  // Read twice: for the images it names, then to write the file.
  assert.equal(t.deps.cuts.decoded, 5 + 10);
  assert.equal(t.deps.cuts.running, 0);
});
