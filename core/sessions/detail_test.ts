// sessionEvents fetches batch data in byte-bounded groups; every batch still comes out once, in
// replay order, whatever the group size.
import assert from "node:assert/strict";
import { createTestDb } from "../../tests/helpers/db.ts";
import { insertProject } from "../../tests/helpers/factories.ts";
import { insertBatch, insertSession } from "../../tests/helpers/sessions_factories.ts";
import { sessionEvents } from "./detail.ts";
import type { Viewer } from "../auth/viewer.ts";

Deno.test("session events: byte-bounded groups return every batch once, in order", async () => {
  await using db = await createTestDb();
  const project = await insertProject(db.kysely);
  const session = await insertSession(db.kysely, project);
  const expected: string[] = [];
  for (let i = 0; i < 12; i++) {
    // Sizes vary so groups hold one, several, or a batch larger than the group limit.
    const events = Array.from({ length: 1 + (i % 4) * 30 }, (_, k) => ({
      timestamp: 1_000 * (12 - i) + k,
      noise: crypto.randomUUID(),
    }));
    expected.unshift(String((await insertBatch(db.kysely, session, events)).id));
  }
  const viewer: Viewer = {
    userId: "u",
    email: "u@example.test",
    activeOrganizationId: project.organization_id,
    role: "VIEWER",
  };
  for (const groupBytes of [1, 500, 2_000, 1 << 30]) {
    const got: string[] = [];
    for await (const batch of await sessionEvents({ db }, viewer, session.id, { groupBytes })) {
      got.push(batch.id);
      assert.ok(Uint8Array.fromBase64(batch.data).length > 0);
    }
    assert.deepEqual(got, expected, `group of ${groupBytes} bytes`);
  }
});
