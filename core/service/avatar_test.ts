import assert from "node:assert/strict";
import { AVATAR_SEED_PATTERN, avatarUrl, renderAvatar } from "./avatar.ts";

Deno.test("avatar: the same seed always draws the same SVG, different seeds differ", () => {
  const a = renderAvatar("0b6d3c1e-6f7a-4d2b-9a51-3f0e7c2d1a90");
  assert.equal(a, renderAvatar("0b6d3c1e-6f7a-4d2b-9a51-3f0e7c2d1a90"));
  assert.notEqual(a, renderAvatar("5f1c9e2a-0d3b-4c7e-8a64-2b9d1e0f7c35"));
  assert.match(a, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/);
});

Deno.test("avatar: the picture is mirrored left to right", () => {
  const svg = renderAvatar("mirror-me");
  const cells = [...svg.matchAll(/<rect x="(\d)" y="(\d)" width="1"/g)]
    .map(([, x, y]) => `${x},${y}`);
  for (const cell of cells) {
    const [x, y] = cell.split(",").map(Number);
    assert.ok(cells.includes(`${4 - x},${y}`), `mirror of ${cell}`);
  }
});

Deno.test("avatar: URLs are built on APP_URL and seeds are restricted to safe characters", () => {
  assert.equal(avatarUrl("https://p.test", "abc-1"), "https://p.test/api/avatars/abc-1.svg");
  assert.ok(AVATAR_SEED_PATTERN.test(crypto.randomUUID()));
  assert.ok(!AVATAR_SEED_PATTERN.test("../etc"));
});
