// sessionEvents fetches batch data in byte-bounded groups; every batch still comes out once, in
// replay order, whatever the group size. sessionFirstBatches reads the first batches in slices.
import assert from "node:assert/strict";
import { createTestDb } from "@/tests/helpers/db.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertBatch, insertSession } from "@/tests/helpers/sessions_factories.ts";
import { sessionEvents, sessionFirstBatches } from "./detail.ts";
import type { Viewer } from "@/core/auth/viewer.ts";

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

Deno.test("session first batches: the first batches in replay order, each whole from its slices", async () => {
  await using db = await createTestDb();
  const project = await insertProject(db.kysely);
  const session = await insertSession(db.kysely, project);
  const stored = [];
  for (const [at, count] of [[3_000, 1], [1_000, 9_000], [2_000, 40], [4_000, 5]]) {
    // Random text compresses little: the second-oldest batch spans several slices.
    const events = Array.from({ length: count }, (_, k) => ({
      timestamp: at + (k % 100),
      noise: crypto.randomUUID(),
    }));
    stored.push(await insertBatch(db.kysely, session, events));
  }
  const inOrder = [...stored].sort((a, b) => a.first_ts - b.first_ts).slice(0, 3);
  assert.ok(inOrder[0].data!.length > 3 * 64 * 1024, `${inOrder[0].data!.length} bytes`);
  const viewer: Viewer = {
    userId: "u",
    email: "u@example.test",
    activeOrganizationId: project.organization_id,
    role: "VIEWER",
  };
  const got: Uint8Array[] = [];
  for await (const slices of await sessionFirstBatches({ db }, viewer, session.id, 3)) {
    const parts: Uint8Array[] = [];
    for await (const slice of slices) parts.push(slice);
    got.push(new Uint8Array(parts.flatMap((p) => [...p])));
  }
  assert.deepEqual(got, inOrder.map((b) => new Uint8Array(b.data!)));
  const other: Viewer = { ...viewer, activeOrganizationId: crypto.randomUUID() };
  await assert.rejects(() => sessionFirstBatches({ db }, other, session.id, 3), /session/);
});
