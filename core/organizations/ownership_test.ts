import assert from "node:assert/strict";
import { heirOnLeaving, type MemberRef } from "./ownership.ts";

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
const member = (userId: string, role: MemberRef["role"], minutes: number): MemberRef => ({
  id: `m-${userId}`,
  userId,
  role,
  createdAt: at(minutes),
});

Deno.test("ownership: the oldest ADMIN inherits, even when an older VIEWER exists", () => {
  const roster = [
    member("owner", "OWNER", 0),
    member("viewer", "VIEWER", 1),
    member("admin-new", "ADMIN", 3),
    member("admin-old", "ADMIN", 2),
  ];
  assert.equal(heirOnLeaving(roster, "owner")?.userId, "admin-old");
});

Deno.test("ownership: without an ADMIN the oldest member inherits", () => {
  const roster = [member("owner", "OWNER", 0), member("b", "VIEWER", 5), member("a", "VIEWER", 4)];
  assert.equal(heirOnLeaving(roster, "owner")?.userId, "a");
});

Deno.test("ownership: nobody inherits while another owner remains, or from a non-owner", () => {
  const roster = [member("o1", "OWNER", 0), member("o2", "OWNER", 1), member("v", "VIEWER", 2)];
  assert.equal(heirOnLeaving(roster, "o1"), null);
  assert.equal(heirOnLeaving(roster, "v"), null);
  assert.equal(heirOnLeaving([member("solo", "OWNER", 0)], "solo"), null);
});
