import assert from "node:assert/strict";
import { getSessionId, newSessionId, uuidV4 } from "./session_id.ts";
import { FakeStorage } from "@/tests/helpers/sdk_doubles.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("session id: one UUID per tab session, kept in storage", () => {
  const storage = new FakeStorage();
  const id = getSessionId(storage);
  assert.match(id, UUID);
  assert.equal(getSessionId(storage), id);
  assert.equal(storage.getItem("playhead:session"), id);
});

Deno.test("session id: a malformed stored id is replaced; a new id replaces the old", () => {
  const storage = new FakeStorage();
  storage.setItem("playhead:session", "nope");
  const id = getSessionId(storage);
  assert.match(id, UUID);
  const next = newSessionId(storage);
  assert.notEqual(next, id);
  assert.equal(getSessionId(storage), next);
});

Deno.test("session id: works without storage and without crypto.randomUUID", () => {
  assert.match(getSessionId(null), UUID);
  const original = crypto.randomUUID;
  try {
    // deno-lint-ignore no-explicit-any
    (crypto as any).randomUUID = undefined;
    for (let i = 0; i < 50; i++) assert.match(uuidV4(), UUID);
  } finally {
    // deno-lint-ignore no-explicit-any
    (crypto as any).randomUUID = original;
  }
});
