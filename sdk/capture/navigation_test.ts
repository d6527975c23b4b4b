import assert from "node:assert/strict";
import { isPageChange, PageTracker } from "./navigation.ts";
import { FakeStorage } from "@/tests/helpers/sdk_doubles.ts";

Deno.test("navigation: a new path is a page change; hash-only and query-only changes are not", () => {
  assert.equal(isPageChange("https://a.test/x", "https://a.test/y"), true);
  assert.equal(isPageChange("https://a.test/x", "https://a.test/x?tab=2"), false);
  assert.equal(isPageChange("https://a.test/x?tab=1", "https://a.test/x#top"), false);
  assert.equal(isPageChange("https://a.test/x", "https://a.test/y?tab=2"), true);
  assert.equal(isPageChange("https://a.test/x", "https://b.test/x"), true);
});

Deno.test("navigation: the tracker reports a change only after a first page was recorded", () => {
  const storage = new FakeStorage();
  const tracker = new PageTracker(storage);
  assert.equal(tracker.changedTo("https://a.test/"), false);
  assert.equal(tracker.changedTo("https://a.test/?q=1"), false);
  assert.equal(tracker.changedTo("https://a.test/next"), true);
  // A new page load of the same tab session remembers the last page.
  assert.equal(new PageTracker(storage).changedTo("https://a.test/other"), true);
  tracker.reset();
  assert.equal(new PageTracker(storage).changedTo("https://a.test/x"), false);
});
