// What an exported replay says about the recorded page's images (docs/decisions.md "Exports"): a
// notice above the player naming each image not in the file and why, visible before any script
// runs, and the same as JSON (`<script type="application/json" id="playhead-export-images">`).
import type { ImageReport, MissingReason } from "./inline_images.ts";

const WHY: Record<MissingReason, string> = {
  private: "refused: a private address",
  failed: "failed",
  too_large: "too large",
  not_image: "not an image",
  unsupported: "not fetched",
  skipped: "not fetched",
};

const text = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** The notice, or "" when every image of the recording is in the file. */
export function imageNotice({ inlined, missing, unlisted }: ImageReport): string {
  if (!missing.length && !unlisted) return "";
  const rows = missing.map(({ address, reason, detail }) =>
    `<li><code>${text(address)}</code> — ${WHY[reason]}${detail ? ` (${text(detail)})` : ""}</li>`
  );
  if (unlisted) rows.push(`<li>and ${plural(unlisted, "more image address")}, not fetched</li>`);
  const count = missing.length + unlisted;
  return `<section class="notice notice-warn export-images" role="note" aria-label="Images not in this file">
<p>${plural(count, "image")} of the recording ${count === 1 ? "is" : "are"} not in this file and ${
    count === 1 ? "shows" : "show"
  } blank${inlined ? ` (${plural(inlined, "image")} ${inlined === 1 ? "is" : "are"})` : ""}:</p>
<ul style="max-height: 12em; overflow: auto; margin: 0.5em 0 0; word-break: break-all">${
    rows.join("")
  }</ul>
</section>
`;
}

/** The report as the file's JSON (`<` escaped so it cannot end its element). */
export const imageReportJson = (report: ImageReport) =>
  `<script type="application/json" id="playhead-export-images">${
    JSON.stringify(report).replace(/</g, "\\u003c")
  }</script>\n`;
