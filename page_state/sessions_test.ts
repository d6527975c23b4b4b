import assert from "node:assert/strict";
import { readSessionsQuery, sessionsApiPath, sessionsHref } from "./sessions.ts";

Deno.test("sessions query: the search filters round-trip through the page URL and reach the API", () => {
  const url = new URL(
    "http://x/sessions?search=ada&signals=error&signals=dead_click&visited=%2Fcheckout*" +
      "&browser=Chrome&device=mobile&minDuration=60000&maxDuration=&user=u&os=iOS",
  );
  const q = readSessionsQuery(url);
  assert.deepEqual(q.signals, ["error", "dead_click"]);
  assert.equal(q.maxDuration, undefined);
  const again = readSessionsQuery(new URL(`http://x${sessionsHref(q)}`));
  assert.deepEqual(again, q);
  const api = new URL(`http://x${sessionsApiPath(q)}`).searchParams;
  assert.equal(api.get("signals"), "error,dead_click");
  assert.equal(api.get("searchUsers"), "true");
  assert.equal(api.get("visited"), "/checkout*");
  assert.equal(api.get("minDuration"), "60000");
  assert.equal(api.get("os"), "iOS");
  // Without a search, the API's search stays on session ids alone.
  assert.equal(
    new URL(`http://x${sessionsApiPath({ ...q, search: "" })}`).searchParams.get("searchUsers"),
    null,
  );
});

Deno.test("sessions query: pinned=true and pinned=false round-trip and reach the API; anything else is refused", () => {
  for (const value of ["true", "false"]) {
    const q = readSessionsQuery(new URL(`http://x/sessions?pinned=${value}`));
    assert.equal(q.pinned, value === "true");
    assert.deepEqual(readSessionsQuery(new URL(`http://x${sessionsHref(q)}`)), q);
    assert.equal(new URL(`http://x${sessionsApiPath(q)}`).searchParams.get("pinned"), value);
  }
  assert.equal(readSessionsQuery(new URL("http://x/sessions")).pinned, undefined);
  assert.throws(() => readSessionsQuery(new URL("http://x/sessions?pinned=yes")));
});
