import assert from "node:assert/strict";
import { insightsHref, readInsightsQuery } from "./insights.ts";
import { readReplayMoment, replayHref } from "./replay.ts";
import {
  readTrackedUserQuery,
  trackedUserHref,
  trackedUserSessionsApiPath,
} from "./tracked_user.ts";
import {
  isFiltered,
  readTrackedUsersQuery,
  trackedUsersApiPath,
  trackedUsersHref,
} from "./tracked_users.ts";

const at = (path: string) => new URL(`http://x${path}`);

Deno.test("page URLs: a plain page keeps a plain URL, and defaults are left out of links", () => {
  assert.equal(trackedUsersHref(), "/users");
  assert.equal(trackedUsersHref(readTrackedUsersQuery(at("/users?sort=last-seen"))), "/users");
  assert.equal(insightsHref(), "/insights");
  assert.equal(insightsHref(readInsightsQuery(at("/insights?range=7d"))), "/insights");
  assert.equal(insightsHref({ range: "30d" }), "/insights?range=30d");
});

Deno.test("page URLs: the users page reads a form's repeated statuses and the API's comma list alike", () => {
  const repeated = readTrackedUsersQuery(at("/users?statuses=ONLINE&statuses=IDLE_7D&search="));
  const comma = readTrackedUsersQuery(at("/users?statuses=ONLINE,IDLE_7D"));
  assert.deepEqual(repeated, comma);
  assert.deepEqual(repeated.statuses, ["ONLINE", "IDLE_7D"]);
  assert.equal(repeated.search, undefined);
  assert.equal(isFiltered(repeated), true);
  assert.equal(isFiltered(readTrackedUsersQuery(at("/users?sort=sessions&sortDir=asc"))), false);
  const href = trackedUsersHref({ ...repeated, cursor: "c1" });
  assert.equal(href, "/users?statuses=ONLINE&statuses=IDLE_7D&cursor=c1");
  assert.deepEqual(readTrackedUsersQuery(at(href)), { ...repeated, cursor: "c1" });
  assert.equal(
    trackedUsersApiPath({ ...repeated, cursor: "c1" }),
    "/api/tracked-users?statuses=ONLINE%2CIDLE_7D&limit=25",
  );
  assert.throws(() => readTrackedUsersQuery(at("/users?sort=name")));
});

Deno.test("page URLs: a tracked user's page always names its window", () => {
  assert.deepEqual(readTrackedUserQuery(at("/users/u1")), { range: "24h" });
  assert.equal(trackedUserHref("u 1"), "/users/u%201");
  assert.equal(trackedUserHref("u1", { range: "24h" }), "/users/u1?range=24h");
  assert.equal(trackedUserHref("u1", { range: "6h", cursor: "c" }), "/users/u1?range=6h&cursor=c");
  assert.equal(trackedUserSessionsApiPath("u1"), "/api/tracked-users/u1/sessions?limit=20");
  assert.throws(() => readTrackedUserQuery(at("/users/u1?range=1y")));
});

Deno.test("page URLs: a replay opens at a whole number of ms, anything else at the start", () => {
  assert.equal(replayHref("s1"), "/replays/s1");
  assert.equal(replayHref("s1", 1234.6), "/replays/s1?t=1235");
  assert.equal(replayHref("s1", -5), "/replays/s1?t=0");
  assert.equal(readReplayMoment(at(replayHref("s1", 90_000))), 90_000);
  for (const t of ["", "-1", "1.5", "abc", "1".repeat(13)]) {
    assert.equal(readReplayMoment(at(`/replays/s1?t=${t}`)), 0, t);
  }
});
