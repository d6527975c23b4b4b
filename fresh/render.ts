// Renders a page to a complete HTML document: page inside its layouts inside `_app`, <Head>
// children and island scripts injected. Pages that render no island get no <script> at all.
import { type ComponentChildren, type ComponentType, Fragment, h, type VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { BUILD_URL_PREFIX, type BuildManifest } from "./build_manifest.ts";
import { collectIslands, type IslandCollector } from "./islands.ts";
import { __withHeadSink } from "./runtime.ts";
import { scriptSafeJson } from "./serialize.ts";
import type { AppProps, PageProps } from "./types.ts";

export interface RenderInput {
  page: ComponentType<PageProps<unknown, unknown>>;
  layouts: ComponentType<AppProps>[];
  app?: ComponentType<AppProps>;
  props: PageProps<unknown, unknown>;
  /** Called only when the page rendered an island. */
  build: () => BuildManifest;
  basePath: string;
}

const DEFAULT_HEAD = '<meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1">';

export function renderPage(input: RenderInput): string {
  const { page, layouts, app, props } = input;
  let Component: ComponentType<Record<string, never>> = () => h(page, props);
  for (const layout of layouts.toReversed()) {
    const Inner: ComponentType<Record<string, never>> = Component;
    Component = () => h(layout, { ...(props as AppProps), Component: Inner });
  }
  const root = (app ? h(app, { ...(props as AppProps), Component }) : h(Component, {})) as VNode;

  const head: ComponentChildren[] = [];
  const { result: body, islands } = __withHeadSink(
    (children) => head.push(children),
    () => collectIslands(() => renderToString(root)),
  );
  let html = app
    ? `<!DOCTYPE html>${body}`
    : `<!DOCTYPE html><html><head>${DEFAULT_HEAD}</head><body>${body}</body></html>`;
  let headHtml = head.length > 0 ? renderToString(h(Fragment, null, head)) : "";
  let bodyHtml = "";
  if (islands.names.size > 0) {
    const scripts = islandScripts(islands, input.build(), input.basePath);
    headHtml += scripts.head;
    bodyHtml = scripts.body;
  }
  if (headHtml.includes("<title")) html = dropAppTitle(html);
  html = insertAt(html, html.indexOf("</head>"), headHtml);
  return insertAt(html, html.lastIndexOf("</body>"), bodyHtml);
}

function islandScripts(islands: IslandCollector, build: BuildManifest, basePath: string) {
  const url = (file: string) => `${basePath}${BUILD_URL_PREFIX}${file}`;
  const used: Record<string, string> = {};
  const preload = new Set<string>([build.boot, ...(build.imports[build.boot] ?? [])]);
  for (const name of islands.names) {
    const file = build.islands[name];
    if (!file) {
      throw new Error(
        `Island "${name}" is not in the build manifest: rebuild with deno task build`,
      );
    }
    used[name] = url(file);
    preload.add(file);
    for (const dep of build.imports[file] ?? []) preload.add(dep);
  }
  const state = { buildId: build.buildId, basePath, islands: used, props: islands.props };
  return {
    head: [...preload].map((f) => `<link rel="modulepreload" href="${url(f)}">`).join(""),
    body: `<script type="application/json" id="__FRSH_STATE">${scriptSafeJson(state)}</script>` +
      `<script type="module" src="${url(build.boot)}"></script>`,
  };
}

/** A page's <Head><title> replaces the default title set by `_app`. */
function dropAppTitle(html: string): string {
  const headEnd = html.indexOf("</head>");
  const head = headEnd < 0 ? html : html.slice(0, headEnd);
  return head.replace(/<title>[^<]*<\/title>/, "") + html.slice(head.length);
}

function insertAt(html: string, at: number, extra: string): string {
  if (extra === "") return html;
  return at < 0 ? html + extra : html.slice(0, at) + extra + html.slice(at);
}
