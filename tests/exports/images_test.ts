// The recorded page's images in the HTML export: fetched by the server from the hosts it may
// reach (here loopback servers, allowed by EXPORT_FETCH_ALLOW_HOSTS) and written as data URLs in
// their places; every other one named in the file's notice and its JSON with why, a private one
// never connected to; the images stay within EXPORT_MAX_BYTES.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";
import { galleryEvents, type GalleryImages } from "@/tests/helpers/image_recording.ts";
import { png, RED_PNG, startImageServer } from "@/tests/helpers/image_server.ts";
import { decodeBatch } from "@/recording/decode.ts";

const RED_URL = `data:image/png;base64,${RED_PNG.toBase64()}`;
const MIB = 1024 * 1024;

interface Report {
  inlined: number;
  missing: { address: string; reason: string; detail: string }[];
  unlisted: number;
}

/** The HTML export of a recorded gallery: its text, its events' JSON and its image report. */
async function exported(env: Record<string, string>, images: GalleryImages) {
  await using t = await createTestApp(env);
  const w = await sharesWorld(t);
  const id = await w.record([galleryEvents(images)]);
  const res = await w.api("GET", `/api/sessions/${id}/export?format=html`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=UTF-8");
  const html = await res.text();
  const batches = [...html.matchAll(/data-batch="[^"]*">([^<]*)<\/script>/g)].map((m) => m[1]);
  const events = (await Promise.all(batches.map((b) => decodeBatch(b)))).flat();
  const json = html.match(
    /<script type="application\/json" id="playhead-export-images">(.*?)<\/script>/,
  );
  assert.ok(json, "the file has its image report");
  const report: Report = JSON.parse(json[1]);
  const notice = html.match(/<section class="notice[^"]*export-images"[\s\S]*?<\/section>/)?.[0] ??
    "";
  return { html, events, report, notice, id };
}

/** The attributes of the recorded element whose `alt` is `alt`, in the export's snapshot. */
function attributesOf(events: unknown[], alt: string): Record<string, string> {
  const walk = (value: unknown): Record<string, string> | null => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = walk(item);
        if (found) return found;
      }
      return null;
    }
    if (value === null || typeof value !== "object") return null;
    const { attributes } = value as { attributes?: Record<string, string> };
    if (attributes?.alt === alt) return attributes;
    return walk(Object.values(value));
  };
  const found = walk(events);
  assert.ok(found, alt);
  return found;
}

Deno.test("export images: an allowed host's images are data URLs in their places; a private, redirected, failed, non-image or too large one is listed with why", async () => {
  const big = (n: number) => png(new Uint8Array(n).fill(1));
  await using site = startImageServer({
    "/logo.png": () => png(),
    "/later.png": () => png(),
    "/small.png": () => png(),
    "/big.png": () => png(),
    "/bg.png": () => png(),
    "/band.png": () => png(),
    "/font.woff": () => png(),
    "/page": () => new Response("<p>a page</p>", { headers: { "content-type": "text/html" } }),
    "/gone.png": () => new Response("gone", { status: 404 }),
    "/2mib-less-1": () => big(2 * MIB - 1),
    "/2mib": () => big(2 * MIB),
    "/2mib-and-1": () => big(2 * MIB + 1),
    "/to-private": () => Response.redirect(`${intranet.origin}/secret.png`, 302),
  });
  await using intranet = startImageServer({ "/secret.png": () => png() });
  const o = site.origin;
  const { events, report, notice, html } = await exported(
    { EXPORT_FETCH_ALLOW_HOSTS: `example.org, ${site.host}` },
    {
      page: `${o}/gallery?visitor=ada`,
      imgs: [
        `${o}/logo.png`,
        "gone.png", // relative: resolved against the recorded page
        `${intranet.origin}/secret.png`,
        `${o}/to-private`,
        `${o}/page`,
        "blob:https://shop.example.com/0b7d",
        `${o}/2mib-less-1`,
        `${o}/2mib`,
        `${o}/2mib-and-1`,
      ],
      srcset: `${o}/small.png 1x, ${o}/big.png 2x, ${o}/huge.png 3x`,
      background: `${o}/bg.png`,
      font: `${o}/font.woff`,
      band: `${o}/band.png`,
      later: `${o}/later.png`,
    },
  );
  // Inlined: each in its place, as a data URL.
  assert.equal(attributesOf(events, "img-0").src, RED_URL);
  assert.equal(attributesOf(events, "srcset").srcset, `${RED_URL} 2x`);
  const css = JSON.stringify(events);
  assert.ok(css.includes(`background-image: url(\\"${RED_URL}\\")`), "the style attribute's");
  assert.ok(css.includes(`.band{height:10px;background-image:url(\\"${RED_URL}\\")}`), "<style>'s");
  assert.ok(css.includes('src:url(about:invalid) format(\\"woff\\")'), "no font is fetched");
  const change = events.find((e) => e.type === 3 && (e.data as { source: number }).source === 0);
  assert.deepEqual((change!.data as { attributes: unknown[] }).attributes, [
    { id: 100, attributes: { src: RED_URL } },
  ]);
  assert.equal(
    attributesOf(events, "img-6").src.length,
    "data:image/png;base64,".length + Math.ceil((2 * MIB - 1) / 3) * 4,
  );
  assert.ok(attributesOf(events, "img-7").src.startsWith("data:image/png;base64,AQEB"));
  for (const alt of ["img-1", "img-2", "img-3", "img-4", "img-5", "img-8"]) {
    assert.equal(attributesOf(events, alt).src, "", alt);
  }
  // Fetched: only the images, and of a srcset only the candidate it picked.
  assert.deepEqual(site.seen.toSorted(), [
    "/2mib",
    "/2mib-and-1",
    "/2mib-less-1",
    "/band.png",
    "/bg.png",
    "/big.png",
    "/gone.png",
    "/later.png",
    "/logo.png",
    "/page",
    "/to-private",
  ]);
  // Neither the private address nor the one redirected to was connected to.
  assert.deepEqual(intranet.seen, []);

  assert.equal(report.inlined, 7);
  assert.equal(report.unlisted, 0);
  assert.deepEqual(report.missing.map(({ address, reason }) => [address, reason]), [
    [`${o}/gone.png`, "failed"],
    [`${intranet.origin}/secret.png`, "private"],
    [`${o}/to-private`, "private"],
    [`${o}/page`, "not_image"],
    ["blob:https://shop.example.com/0b7d", "unsupported"],
    [`${o}/2mib-and-1`, "too_large"],
  ]);
  assert.equal(report.missing[0].detail, "HTTP 404");
  assert.equal(report.missing[1].detail, "127.0.0.1");
  assert.match(report.missing[2].detail, /^redirected: /);
  assert.equal(report.missing[3].detail, "text/html");
  // The notice says the same, visibly, above the player.
  assert.ok(html.indexOf(notice) < html.indexOf('id="replay"'));
  assert.match(
    notice,
    /6 images of the recording are not in this file and show blank \(7 images are\)/,
  );
  for (
    const line of [
      `<code>${o}/gone.png</code> — failed (HTTP 404)`,
      `<code>${intranet.origin}/secret.png</code> — refused: a private address`,
      `<code>${o}/to-private</code> — refused: a private address (redirected: `,
      `<code>${o}/page</code> — not an image (text/html)`,
      `<code>blob:https://shop.example.com/0b7d</code> — not fetched`,
      `<code>${o}/2mib-and-1</code> — too large`,
    ]
  ) assert.ok(notice.includes(line), line);
});

Deno.test("export images: without EXPORT_FETCH_ALLOW_HOSTS a loopback image is refused as private and never asked for", async () => {
  await using site = startImageServer({ "/logo.png": () => png() });
  const port = site.host.split(":")[1];
  const { events, report, notice } = await exported({}, {
    page: `${site.origin}/gallery`,
    imgs: [`${site.origin}/logo.png`, `http://localhost:${port}/logo.png`],
  });
  assert.equal(attributesOf(events, "img-0").src, "");
  assert.deepEqual(report, {
    inlined: 0,
    missing: [
      { address: `${site.origin}/logo.png`, reason: "private", detail: "127.0.0.1" },
      {
        address: `http://localhost:${port}/logo.png`,
        reason: "private",
        detail: "localhost is a local name",
      },
    ],
    unlisted: 0,
  });
  assert.match(notice, /2 images of the recording are not in this file and show blank:/);
  assert.deepEqual(site.seen, []);
});

Deno.test("export images: the images fit what EXPORT_MAX_BYTES leaves after the stored events, at the byte", async () => {
  await using site = startImageServer({ "/logo.png": () => png() });
  // Named twice (the snapshot and the later change): the data URL is written at both places.
  const gallery = {
    page: `${site.origin}/gallery`,
    imgs: [`${site.origin}/logo.png`],
    later: `${site.origin}/logo.png`,
  };
  const cost = 2 * RED_URL.length;
  await using probe = await createTestApp();
  const p = await sharesWorld(probe);
  const id = await p.record([galleryEvents(gallery)]);
  const stored = Number(
    (await p.db.selectFrom("event_batches").innerJoin(
      "sessions",
      (j) => j.onRef("sessions.external_id", "=", "event_batches.session_external_id"),
    ).where("sessions.id", "=", id)
      .select((eb) => eb.fn.sum<number>(eb.fn("octet_length", ["event_batches.data"])).as("bytes"))
      .executeTakeFirstOrThrow()).bytes,
  );
  for (const [limit, inlined] of [[cost - 1, 0], [cost, 1], [cost + 1, 1]]) {
    const env = { EXPORT_FETCH_ALLOW_HOSTS: site.host, EXPORT_MAX_BYTES: String(stored + limit) };
    const { events, report } = await exported(env, gallery);
    assert.equal(report.inlined, inlined, `room ${limit}`);
    assert.equal(attributesOf(events, "img-0").src, inlined ? RED_URL : "", `room ${limit}`);
    if (!inlined) {
      assert.deepEqual(report.missing.map((m) => m.reason), ["too_large"]);
      assert.match(report.missing[0].detail, /^over the room EXPORT_MAX_BYTES leaves/);
    }
  }
});
