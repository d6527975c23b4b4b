// Server side of islands: a Preact `options.vnode` hook swaps each island component for a wrapper
// that renders it inside a <fresh-island> marker and records its props for the client boot script.
import { type ComponentType, createContext, h, options, type VNode } from "preact";
import { useContext } from "preact/hooks";
import { assertJsonProps } from "./serialize.ts";
import type { Manifest } from "./types.ts";

/** What one page render collected: which islands it used and their props, in order. */
export interface IslandCollector {
  names: Set<string>;
  props: Record<string, unknown>[];
}

// deno-lint-ignore no-explicit-any
type AnyComponent = ComponentType<any>;

const islandNames = new Map<AnyComponent, string>();
const wrappers = new Map<AnyComponent, AnyComponent>();
// Rendering to string is synchronous, so one "current render" slot cannot be shared by two pages.
let current: IslandCollector | null = null;
// Islands nested in an island render as plain components: the outer island hydrates them.
const InsideIsland = createContext(false);

/** Island name from its manifest key: `./islands/LiveStatus.tsx` → `LiveStatus`. */
export function islandName(key: string): string {
  return key.replace(/^\.\/islands\//, "").replace(/\.(tsx|ts|jsx|js)$/, "");
}

export function registerIslands(manifest: Manifest): string[] {
  installHook();
  const names: string[] = [];
  for (const [key, module] of Object.entries(manifest.islands)) {
    if (typeof module.default !== "function") {
      throw new TypeError(`Island ${key} must have a component as its default export`);
    }
    const name = islandName(key);
    islandNames.set(module.default, name);
    names.push(name);
  }
  return names;
}

/** Runs `render` while collecting the islands it renders. */
export function collectIslands<T>(render: () => T): { result: T; islands: IslandCollector } {
  const islands: IslandCollector = { names: new Set(), props: [] };
  const previous = current;
  current = islands;
  try {
    return { result: render(), islands };
  } finally {
    current = previous;
  }
}

let installed = false;
function installHook() {
  if (installed) return;
  installed = true;
  const previous = options.vnode;
  options.vnode = (vnode: VNode) => {
    const name = islandNames.get(vnode.type as AnyComponent);
    if (name !== undefined) vnode.type = wrapperFor(vnode.type as AnyComponent, name);
    previous?.(vnode);
  };
}

function wrapperFor(island: AnyComponent, name: string): AnyComponent {
  let wrapper = wrappers.get(island);
  if (wrapper) return wrapper;
  wrapper = function IslandBoundary(props: Record<string, unknown>) {
    const inner = h(island, props);
    inner.type = island; // the hook just wrapped it again; undo that for the inner element
    if (useContext(InsideIsland) || current === null) return inner;
    assertJsonProps(name, props);
    const index = current.props.push(props) - 1;
    current.names.add(name);
    return h(
      "fresh-island",
      { "data-island": name, "data-props": String(index), style: "display:contents" },
      h(InsideIsland.Provider, { value: true }, inner),
    );
  };
  wrappers.set(island, wrapper);
  return wrapper;
}
