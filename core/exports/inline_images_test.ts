import assert from "node:assert/strict";
import { IMAGE_LIMITS, type ImageLimits, inlineImages } from "./inline_images.ts";
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import { galleryEvents } from "@/tests/helpers/image_recording.ts";
import { gzipBytes } from "@/tests/helpers/ingest.ts";
import { png, RED_PNG, startImageServer } from "@/tests/helpers/image_server.ts";

/** The gallery's events as one stored batch, read once. */
async function* batches(imgs: string[]): AsyncIterable<EventBatchOut> {
  const events = galleryEvents({ page: "https://shop.example.com/gallery", imgs });
  const bytes = await gzipBytes(new TextEncoder().encode(JSON.stringify(events)));
  yield {
    id: "1",
    firstTimestamp: events[0].timestamp,
    lastTimestamp: events.at(-1)!.timestamp,
    eventCount: events.length,
    data: bytes.toBase64(),
  };
}

const limited = (limits: Partial<ImageLimits>) => ({ ...IMAGE_LIMITS, ...limits });
const reasons = (report: { missing: { reason: string; detail: string }[] }) =>
  report.missing.map(({ reason, detail }) => `${reason}: ${detail}`);

Deno.test("export images: at most `count` distinct images are fetched; the rest are listed as skipped, never asked for", async () => {
  await using site = startImageServer({
    "/1.png": () => png(),
    "/2.png": () => png(),
    "/3.png": () => png(),
  });
  const paths = ["/1.png", "/2.png", "/3.png"];
  for (const n of [1, 2, 3]) {
    site.seen.length = 0;
    const imgs = paths.slice(0, n).map((path) => site.origin + path);
    const { report, inlined } = await inlineImages(batches(imgs), {
      allowHosts: [site.host],
      room: Infinity,
      limits: limited({ count: 2 }),
    });
    assert.equal(report.inlined, Math.min(n, 2), `${n} images`);
    assert.deepEqual(Object.keys(inlined), imgs.slice(0, 2));
    assert.deepEqual(
      reasons(report),
      n === 3 ? ["skipped: an export fetches at most 2 images"] : [],
    );
    assert.equal(site.seen.length, Math.min(n, 2));
  }
});

Deno.test("export images: none is started once the images fetched reach `totalBytes`", async () => {
  await using site = startImageServer({
    "/1.png": () => png(),
    "/2.png": () => png(),
    "/3.png": () => png(),
  });
  const imgs = ["/1.png", "/2.png", "/3.png"].map((path) => site.origin + path);
  const two = 2 * RED_PNG.length;
  for (const [totalBytes, fetched] of [[two - 1, 2], [two, 2], [two + 1, 3]]) {
    const { report } = await inlineImages(batches(imgs), {
      allowHosts: [site.host],
      room: Infinity,
      limits: limited({ totalBytes, concurrency: 1 }),
    });
    assert.equal(report.inlined, fetched, `${totalBytes} bytes`);
    assert.deepEqual(
      reasons(report),
      fetched === 3
        ? []
        : [`skipped: the images fetched reached ${totalBytes / (1024 * 1024)} MiB`],
    );
  }
});

Deno.test("export images: past `totalMs` what is fetching fails and what has not started is skipped; past `listed` addresses are only counted", async () => {
  await using site = startImageServer({
    "/slow.png": () => site.closed.then(() => png()),
    "/2.png": () => png(),
  });
  const { report } = await inlineImages(
    batches([`${site.origin}/slow.png`, `${site.origin}/2.png`]),
    {
      allowHosts: [site.host],
      room: Infinity,
      limits: limited({ totalMs: 300, concurrency: 1 }),
    },
  );
  assert.deepEqual(reasons(report), [
    "failed: timed out",
    "skipped: out of time (0.3 s for all images)",
  ]);
  assert.deepEqual(site.seen, ["/slow.png"]);

  const many = await inlineImages(
    batches(["a", "b", "c", "d"].map((name) => `blob:https://shop.example.com/${name}`)),
    { allowHosts: [], room: Infinity, limits: limited({ listed: 3 }) },
  );
  assert.equal(many.report.missing.length, 3);
  assert.equal(many.report.unlisted, 1);
});
