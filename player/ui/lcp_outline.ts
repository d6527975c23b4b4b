// The LCP element outlined in the replay at its time: the page's `web_vital` LCP marker (its
// selector, from web-vitals' attribution) is looked up in the replayed document while the replay
// is within LCP_SHOWN_MS after it, and its box drawn over the recording.
import { useEffect, useState } from "preact/hooks";
import type { SessionMarker } from "./history.ts";

/** How long after the LCP moment the outline stays. */
export const LCP_SHOWN_MS = 3000;

export interface LcpMark {
  offset: number;
  selector: string;
  label: string;
}

/** The LCP marker shown at `now` (ms from the session start): the last one within its window. */
export function lcpAt(markers: readonly SessionMarker[], now: number, startedAt: number) {
  let shown: LcpMark | null = null;
  for (const m of markers) {
    const d = (m.data ?? {}) as Record<string, unknown>;
    if (m.kind !== "web_vital" || d.name !== "lcp" || typeof d.selector !== "string") continue;
    const offset = m.timestamp - startedAt;
    if (offset <= now && now <= offset + LCP_SHOWN_MS) {
      const seconds = typeof d.value === "number" ? ` ${(d.value / 1000).toFixed(1)} s` : "";
      shown = { offset, selector: d.selector, label: `LCP${seconds} ${d.rating ?? ""}`.trim() };
    }
  }
  return shown;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The box of `mark`'s element in the replayed document under `root`, or null. */
export function useLcpBox(root: HTMLElement | null, mark: LcpMark | null, now: number) {
  const [box, setBox] = useState<Box | null>(null);
  useEffect(() => {
    const doc = root?.querySelector("iframe")?.contentDocument;
    let element: Element | null = null;
    try {
      element = mark && doc ? doc.querySelector(mark.selector) : null;
    } catch {
      element = null; // a selector this document cannot parse
    }
    const r = element?.getBoundingClientRect();
    setBox(
      r && r.width > 0 ? { left: r.left, top: r.top, width: r.width, height: r.height } : null,
    );
  }, [root, mark?.selector, mark?.offset, Math.floor(now / 250)]);
  return box;
}
