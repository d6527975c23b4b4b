import assert from "node:assert/strict";
import {
  MAX_DATE_MS,
  RECORDED_FUTURE_MS,
  RECORDED_PAST_MS,
  recordedTimeIssue,
} from "./recorded_time.ts";

const NOW = Date.UTC(2026, 10, 28, 12);

Deno.test("recorded time: 30 days before the server's clock is kept, a millisecond more is not", () => {
  assert.equal(recordedTimeIssue(NOW - RECORDED_PAST_MS + 1, NOW), null);
  assert.equal(recordedTimeIssue(NOW - RECORDED_PAST_MS, NOW), null);
  assert.match(recordedTimeIssue(NOW - RECORDED_PAST_MS - 1, NOW)!, /30 days before/);
});

Deno.test("recorded time: 1 day after the server's clock is kept, a millisecond more is not", () => {
  assert.equal(recordedTimeIssue(NOW + RECORDED_FUTURE_MS - 1, NOW), null);
  assert.equal(recordedTimeIssue(NOW + RECORDED_FUTURE_MS, NOW), null);
  assert.match(recordedTimeIssue(NOW + RECORDED_FUTURE_MS + 1, NOW)!, /1 day after/);
});

Deno.test("recorded time: never past JavaScript's Date range, whatever the clock says", () => {
  const lateClock = MAX_DATE_MS - 1000;
  assert.equal(recordedTimeIssue(MAX_DATE_MS, lateClock), null);
  assert.notEqual(recordedTimeIssue(MAX_DATE_MS + 1, lateClock), null);
  assert.notEqual(recordedTimeIssue(8.64e15 + 1, NOW), null);
});

Deno.test("recorded time: never before the epoch, and only whole safe numbers", () => {
  assert.equal(recordedTimeIssue(0, 1000), null);
  assert.notEqual(recordedTimeIssue(-1, 1000), null);
  assert.notEqual(recordedTimeIssue(NOW + 0.5, NOW), null);
  assert.notEqual(recordedTimeIssue(Number.MAX_SAFE_INTEGER + 2, NOW), null);
});
