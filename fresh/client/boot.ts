// Browser boot script: reads the page's island state, imports only the islands on the page and
// hydrates each <fresh-island> marker with its serialised props.
import { type ComponentType, h, hydrate } from "preact";
import { __setAssetConfig } from "@/fresh/runtime.ts";

interface IslandState {
  buildId: string;
  basePath: string;
  islands: Record<string, string>;
  props: Record<string, unknown>[];
}

const script = document.getElementById("__FRSH_STATE");
if (script?.textContent) {
  // The server-rendered page paints first: importing and hydrating islands (the replay player
  // brings rrweb) would otherwise hold the first frame until they are done. A hidden tab runs no
  // animation frames, hence the timeout. A page whose island has nothing of its own to paint
  // first (the replay opened at a moment, without a server frame) asks to hydrate at once.
  if (!document.querySelector("[data-hydrate=now]")) {
    await new Promise((painted) => {
      requestAnimationFrame(() => setTimeout(painted, 0));
      setTimeout(painted, 100);
    });
  }
  const state: IslandState = JSON.parse(script.textContent);
  __setAssetConfig(state.buildId, state.basePath);
  const modules = new Map<string, Promise<{ default: ComponentType }>>();
  const load = (name: string) => {
    if (!modules.has(name)) modules.set(name, import(state.islands[name]));
    return modules.get(name)!;
  };
  const roots = [...document.querySelectorAll<HTMLElement>("fresh-island")];
  await Promise.all(roots.map(async (root) => {
    const name = root.dataset.island ?? "";
    try {
      const { default: Island } = await load(name);
      hydrate(h(Island, state.props[Number(root.dataset.props)]), root);
      root.dataset.hydrated = "true";
    } catch (error) {
      console.error(`Island ${name} failed to hydrate`, error);
    }
  }));
}
