// A capture client out of step is told: an unknown field of the envelope,
// of metadata or of a slice marker is a 400 naming it; event payloads stay open.
import assert from "node:assert/strict";
import type { z } from "zod";
import type { ingestBodySchema, metadataSchema } from "@/core/ingest/schema.ts";
import type { IngestBody as SdkBody, SessionMetadata as SdkMetadata } from "@/sdk/types.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { T0 } from "@/tests/helpers/times.ts";

// The SDK never sends a field the service would refuse (checked by the type checker).
type Extra<A, B> = Exclude<keyof A, keyof B>;
const sdkEnvelopeFits: [Extra<SdkBody, z.input<typeof ingestBodySchema>>] extends [never] ? true
  : false = true;
const sdkMetadataFits: [Extra<SdkMetadata, z.input<typeof metadataSchema>>] extends [never] ? true
  : false = true;

Deno.test("ingest: an unknown field is a 400 that names it", async () => {
  assert.ok(sdkEnvelopeFits && sdkMetadataFits);
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const base = { sessionId: crypto.randomUUID(), events: recordedEvents(2), metadata: METADATA };
  const cases: Array<[unknown, string, string]> = [
    [{ ...base, sessionID: "x" }, "", "sessionID"],
    [{ ...base, compressed: true }, "", "compressed"],
    [{ ...base, metadata: { ...METADATA, timezone: "UTC" } }, "metadata", "timezone"],
    [
      {
        ...base,
        metadata: { ...METADATA, userIdentity: { userId: "u", traits: {}, email: "x" } },
      },
      "metadata.userIdentity",
      "email",
    ],
    [
      {
        ...base,
        sliceMarkers: [{ index: 0, reason: "r", startedAt: 1, url: "u", pathname: "/", extra: 1 }],
      },
      "sliceMarkers.0",
      "extra",
    ],
  ];
  for (const [body, path, field] of cases) {
    const res = await postIngest(t.app, body, { key });
    assert.equal(res.status, 400, field);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    const error = await res.json();
    assert.equal(error.kind, "validation");
    const issue = error.issues.find((i: { path: string }) => i.path === path);
    assert.ok(issue, `${field}: ${JSON.stringify(error.issues)}`);
    assert.match(issue.message, new RegExp(`"${field}"`));
  }
  assert.equal(
    await t.db.kysely.selectFrom("sessions").select("id").execute().then((r) => r.length),
    0,
  );

  // Events keep whatever rrweb put in them.
  const open = await postIngest(t.app, {
    ...base,
    events: [{ type: 3, data: { source: 99, anything: [1] }, timestamp: T0, rrwebExtra: true }],
  }, { key });
  assert.equal(open.status, 204);
});
