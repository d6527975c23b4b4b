// An export as one HTML file that plays with no network at all (docs/decisions.md "Exports"): the
// page's styles, each batch as an inert `<script type="application/octet-stream">` holding its
// base64 (written as it is read), the player's props, then the player itself
// (player/offline/entry.tsx). Its policy lets only that one script run and loads nothing from
// anywhere: the recorded images the server could fetch are in the events as data URLs
// (core/exports/inline_images.ts), a notice names those that are not, and what is not inlined (the
// rest, fonts) stays blank. Both readings of the batches are made in the cut worker
// (core/shares/cut_job.ts "images", then "html"); only the images are fetched here.
import type { ExportProps } from "./props.ts";
import { cutInputs, type CutPool } from "@/core/shares/cut_pool.ts";
import { onEnd } from "@/core/on_end.ts";
import { STYLESHEETS } from "@/core/stylesheets.ts";
import type { SessionExport } from "./export.ts";
import { fetchImages, IMAGE_LIMITS, type ImageOptions } from "./inline_images.ts";
import type { ImageSightings } from "./image_places.ts";
import { imageNotice, imageReportJson } from "./image_notice.ts";

let styles: Promise<string> | null = null;

/** The dashboard's stylesheets, as every page links them, read once. */
function pageStyles(): Promise<string> {
  styles ??= Promise.all(
    STYLESHEETS.map((name) => Deno.readTextFile(new URL(`../../static/${name}`, import.meta.url))),
  ).then((texts) => texts.join("\n"));
  return styles;
}

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return new Uint8Array(digest).toBase64();
}

/** Escapes text for an element whose content must not end early (`</script`, `<!--`). */
const inScript = (text: string) => text.replace(/</g, "\\u003c");
const attribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * Every event but custom ones (identify() puts the tracked user's traits there) and requests, page
 * addresses cut to origin and path, every remote address emptied but the images fetched. The first
 * reading is admitted by the cut worker now (503 while it is full), before the answer starts.
 */
export function htmlExport(
  file: SessionExport,
  playerScript: string,
  images: Omit<ImageOptions, "room">,
  cuts: CutPool,
): AsyncIterable<string> {
  const listed = (images.limits ?? IMAGE_LIMITS).listed;
  const first = cuts.sightings(listed, cutInputs(file.batches))[Symbol.asyncIterator]();
  return onEnd(written(file, playerScript, images, first, cuts), () => void first.return?.());
}

async function* written(
  file: SessionExport,
  playerScript: string,
  images: Omit<ImageOptions, "room">,
  first: AsyncIterator<ImageSightings>,
  cuts: CutPool,
): AsyncGenerator<string> {
  const { session } = file;
  const script = playerScript.replace(/<\/(script)/gi, "<\\/$1");
  const policy = `default-src 'none'; script-src 'sha256-${await sha256Base64(script)}'; ` +
    "style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; " +
    "object-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'";
  const recorded = session.startedAt.replace("T", " ").slice(0, 16) + " UTC";
  yield `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Replay recorded ${recorded} · Playhead</title>
<style>${await pageStyles()}</style>
</head>
<body>
<main class="site-main">
<div class="replay-heading"><h1>Replay</h1><span class="muted">recorded ${recorded}, exported from Playhead</span></div>
`;
  const sighted = await first.next();
  await first.return?.(); // its one piece is in: its place in the worker goes to the second reading
  if (sighted.done) throw new Error("the first reading ended without its images");
  const { report, inlined } = await fetchImages(sighted.value, { ...images, room: file.room });
  yield `${imageNotice(report)}${
    imageReportJson(report)
  }<div class="replay-page" id="replay"><p class="muted">Loading the recording…</p></div>
</main>
`;
  const second = cutInputs(await file.reread());
  for await (const batch of cuts.batches({ kind: "html", inlined }, second, { continued: true })) {
    const { data, ...fields } = batch;
    yield `<script type="application/octet-stream" data-batch="${
      attribute(JSON.stringify(fields))
    }">${data}</script>\n`;
  }
  const props: ExportProps = {
    startedAt: Date.parse(session.startedAt),
    duration: session.duration,
    eventCount: session.eventCount,
    markers: file.markers,
  };
  yield `<script type="application/json" id="playhead-export">${
    inScript(JSON.stringify(props))
  }</script>\n<script>${script}</script>\n</body>\n</html>\n`;
}
