import assert from "node:assert/strict";
import { commentHref, readReplayComment, readReplayMoment } from "./replay.ts";

const at = (path: string) => new URL(`http://x${path}`);

Deno.test("replay URL: a comment's link opens at its moment with the comment named", () => {
  const href = commentHref("s1", { id: "c0a1b2", offsetMs: 42_000 });
  assert.equal(href, "/replays/s1?t=42000&comment=c0a1b2");
  assert.equal(readReplayMoment(at(href)), 42_000);
  assert.equal(readReplayComment(at(href)), "c0a1b2");
  assert.equal(commentHref("a b", { id: "c1", offsetMs: 0 }), "/replays/a%20b?t=0&comment=c1");
});

Deno.test("replay URL: a comment that is not an id reads as none", () => {
  assert.equal(readReplayComment(at("/replays/s1")), null);
  assert.equal(readReplayComment(at("/replays/s1?t=5")), null);
  const id64 = "a".repeat(64);
  assert.equal(readReplayComment(at(`/replays/s1?comment=${id64}`)), id64);
  for (const bad of ["", "a".repeat(65), "C1", "c-1", "c%201", "%3Cb%3E", "c1%0A"]) {
    assert.equal(readReplayComment(at(`/replays/s1?comment=${bad}`)), null, bad);
  }
});
