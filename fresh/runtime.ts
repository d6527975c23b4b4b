// Fresh 1.x `$fresh/runtime.ts`: helpers usable in both server components and islands.
import type { ComponentChildren } from "preact";

export const IS_BROWSER = typeof document !== "undefined";

const assetConfig = { buildId: "", basePath: "" };
type HeadSink = (children: ComponentChildren) => void;
let headSink: HeadSink | null = null;

/**
 * A cache-busting URL for a file in `static/`: `asset("/styles.css")` →
 * `/styles.css?__frsh_c=<build id>`. Such URLs are served with a year-long immutable cache.
 */
export function asset(path: string): string {
  if (!path.startsWith("/") || path.startsWith("//") || assetConfig.buildId === "") return path;
  const separator = path.includes("?") ? "&" : "?";
  return `${assetConfig.basePath}${path}${separator}__frsh_c=${assetConfig.buildId}`;
}

/** Puts its children into the document's <head> (title, meta, links) during server rendering. */
export function Head(props: { children?: ComponentChildren }): null {
  if (!IS_BROWSER) headSink?.(props.children);
  return null;
}

/** Internal: set by the page handler on the server and by the boot script in the browser. */
export function __setAssetConfig(buildId: string, basePath: string): void {
  assetConfig.buildId = buildId;
  assetConfig.basePath = basePath;
}

/** Internal: the renderer collects <Head> children while one page renders (synchronously). */
export function __withHeadSink<T>(sink: HeadSink, render: () => T): T {
  const previous = headSink;
  headSink = sink;
  try {
    return render();
  } finally {
    headSink = previous;
  }
}
