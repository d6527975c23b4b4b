// Where the map's elements are laid out in the page's frame (docs/decisions.md "Heatmaps"), for the
// heat layer's element boxes. The shown frame is of an opaque origin (no allow-same-origin: a
// srcdoc of the dashboard's origin would name its address in the Referer of loads the recorded CSS
// starts), so the page cannot read it; its HTML is laid out once more in a hidden frame that can
// be: about:blank, sandboxed without scripts, its address kept through the reset that gives it
// the recording's mode (player/dom/blank_address.ts, as the player's frame), the parsed nodes
// imported (no `document.write`, which would give it the dashboard's address), and measured with
// querySelector + getBoundingClientRect at the shown frame's size. Browser-only.
import { keepBlankAddress } from "@/player/dom/blank_address.ts";
import type { Box } from "@/charts/heatmap_layer.ts";

/** How long the probe waits for the recording's images and fonts before it measures again. */
const SETTLE_MS = 2000;

/** The shown frame's HTML: its srcdoc, or the document its src serves (a frame over 1 MiB). */
async function frameHtml(frame: HTMLIFrameElement): Promise<string | null> {
  const srcdoc = frame.getAttribute("srcdoc");
  if (srcdoc !== null) return srcdoc;
  const src = frame.getAttribute("src");
  if (!src) return null;
  const res = await fetch(src, { credentials: "same-origin" });
  return res.ok ? await res.text() : null;
}

/** The hidden frame, laid out at `width` × `height` with the frame's document; null if it cannot. */
async function layOut(html: string, width: number, height: number) {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  const probe = document.createElement("iframe");
  probe.setAttribute("sandbox", "allow-same-origin");
  probe.setAttribute("aria-hidden", "true");
  probe.tabIndex = -1;
  probe.className = "heatmap-probe";
  probe.style.cssText = `width:${width}px;height:${height}px`;
  document.body.append(probe);
  const doc = probe.contentDocument;
  if (!doc) return probe.remove(), null;
  if (parsed.compatMode === "CSS1Compat") {
    // about:blank starts in quirks mode; the reset parses a doctype, keeping its address
    keepBlankAddress(probe);
    doc.open();
  }
  // (replaceChildren checks a document's one element before it removes the old one)
  doc.documentElement?.remove();
  doc.append(doc.importNode(parsed.documentElement, true));
  await settled(doc);
  return probe;
}

/** The probe's images and fonts loaded, or SETTLE_MS passed. */
function settled(doc: Document): Promise<unknown> {
  const images = [...doc.images].filter((img) => !img.complete).map((img) =>
    new Promise((done) => {
      img.addEventListener("load", done, { once: true });
      img.addEventListener("error", done, { once: true });
    })
  );
  return Promise.race([
    Promise.all([...images, doc.fonts?.ready]),
    new Promise((done) => setTimeout(done, SETTLE_MS)),
  ]);
}

/** The box of each selector found and laid out (not empty) in the frame's document. */
export function measure(doc: Document, selectors: readonly string[]): Map<string, Box> {
  const out = new Map<string, Box>();
  const view = doc.defaultView;
  for (const selector of selectors) {
    let found: Element | null = null;
    try {
      found = doc.querySelector(selector);
    } catch {
      continue; // a selector this browser does not parse: boxed by its clicks
    }
    const r = found?.getBoundingClientRect();
    if (!r || r.width <= 0 || r.height <= 0) continue;
    const x = r.left + (view?.scrollX ?? 0), y = r.top + (view?.scrollY ?? 0);
    out.set(selector, { x, y, w: r.width, h: r.height });
  }
  return out;
}

/**
 * The boxes of `selectors` in the page shown by `frame`, laid out at `width` × `height` (its size
 * in the page's px); an empty map when the frame's document cannot be had.
 */
export async function probeElements(
  frame: HTMLIFrameElement,
  selectors: readonly string[],
  width: number,
  height: number,
): Promise<Map<string, Box>> {
  const html = await frameHtml(frame).catch(() => null);
  if (!html) return new Map();
  const probe = await layOut(html, width, height);
  if (!probe?.contentDocument) return new Map();
  try {
    return measure(probe.contentDocument, selectors);
  } finally {
    probe.remove();
  }
}
