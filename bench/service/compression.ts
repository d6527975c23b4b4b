// Bytes on the wire with and without compression, and the CPU each dynamic level costs.
//
//   deno task build && deno run -A bench/service/compression.ts
//
// In-process (`app.request`, no socket) on the production build in static/build and an embedded
// database holding one organization with 100 sessions. "identity" is what every client got before
// compression; browsers send `Accept-Encoding: gzip, deflate, br, zstd` and get brotli. The level
// table times each coding on the dynamic bodies (median of repeated runs on this machine, so read
// the ratios, not the milliseconds).
import { join } from "node:path";
import zlib from "node:zlib";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { readBuildManifest } from "@/fresh/build_manifest.ts";
import { resolveConfig } from "@/fresh/config.ts";
import { createPageHandler, createStaticHandler } from "@/fresh/server.ts";
import freshConfig from "@/fresh.config.ts";
import manifest from "@/fresh.gen.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSessions, insertTrackedUser } from "@/tests/helpers/sessions_factories.ts";

const { staticDir, buildDir } = resolveConfig(
  freshConfig,
  new URL("../../main.ts", import.meta.url).href,
);
const build = await readBuildManifest(buildDir);
if (!build) throw new Error("no build: run `deno task build` first");

await using t = await createTestApp({}, {
  staticFiles: createStaticHandler({ staticDir, buildDir }),
  mounts: [sdkAssets({ dir: join(buildDir, "sdk") })],
  pages: await createPageHandler(manifest, { staticDir, buildDir }),
});
const me = await signedInUser(t);
const project = await insertProject(t.db.kysely, { organizationId: me.organizationId });
const user = await insertTrackedUser(t.db.kysely, project, { externalId: "grace@example.com" });
await insertSessions(
  t.db.kysely,
  project,
  Array.from({ length: 100 }, (_, i) => ({
    createdAt: new Date(Date.now() - i * 60_000),
    trackedUserId: i % 3 === 0 ? user.id : null,
    url: `https://shop.example.com/products/${i}?ref=mail`,
  })),
);

const largestIsland = await largest(build.files.filter((f) => f.endsWith(".js")));
const sessionsPage = (await get("/sessions", "identity")).status === 200 ? "/sessions" : null;
const targets: [string, string][] = [
  ["SDK /sdk/v1/playhead.js", "/sdk/v1/playhead.js"],
  [`largest file of the islands build (${largestIsland})`, `/build/${largestIsland}`],
  ...(sessionsPage ? [["sessions list page", sessionsPage]] as [string, string][] : []),
  ["home page /", "/"],
  ["sessions list JSON (100 rows)", "/api/sessions?limit=100"],
  ["/api/openapi.json", "/api/openapi.json"],
];

console.log(`\n| response | identity (before) | gzip | br | br ÷ identity |`);
console.log(`| --- | ---: | ---: | ---: | ---: |`);
const dynamic: [string, Uint8Array][] = [];
for (const [name, path] of targets) {
  const sizes: Record<string, number> = {};
  for (const coding of ["identity", "gzip", "br"]) {
    const res = await get(path, coding);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    const wire = new Uint8Array(await res.arrayBuffer());
    sizes[coding] = wire.length;
    if (coding === "identity" && !path.startsWith("/sdk") && !path.startsWith("/build")) {
      dynamic.push([name, wire]);
    }
  }
  const ratio = (sizes.br / sizes.identity).toFixed(2);
  console.log(`| ${name} | ${sizes.identity} | ${sizes.gzip} | ${sizes.br} | ${ratio} |`);
}
if (!sessionsPage) console.log("\n(no /sessions page on this branch: the home page stands in)");

console.log(`\n| dynamic body | coding | bytes | ms per response (median) |`);
console.log(`| --- | --- | ---: | ---: |`);
const C = zlib.constants;
const codings: [string, (b: Uint8Array) => Uint8Array][] = [
  ...[1, 4, 5, 6].map((q): [string, (b: Uint8Array) => Uint8Array] => [
    `br ${q}`,
    (b) =>
      zlib.brotliCompressSync(b, {
        params: { [C.BROTLI_PARAM_QUALITY]: q, [C.BROTLI_PARAM_SIZE_HINT]: b.length },
      }),
  ]),
  ...[1, 6, 9].map((l): [string, (b: Uint8Array) => Uint8Array] => [
    `gzip ${l}`,
    (b) => zlib.gzipSync(b, { level: l }),
  ]),
];
for (const [name, body] of dynamic) {
  for (const [coding, encode] of codings) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 31; i++) {
      const start = performance.now();
      bytes = encode(body).length;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${name} (${body.length} B) | ${coding} | ${bytes} | ${times[15].toFixed(2)} |`);
  }
}
console.log(
  `\nload average: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`,
);

async function get(path: string, coding: string): Promise<Response> {
  return await t.app.request(path, { headers: { "Accept-Encoding": coding, Cookie: me.cookie } });
}

async function largest(files: string[]): Promise<string> {
  const sizes = await Promise.all(
    files.map(async (f) => (await Deno.stat(join(buildDir, f))).size),
  );
  return files[sizes.indexOf(Math.max(...sizes))];
}
