// Parts of the SDK that load on demand, as ES modules beside the entry under the service's /sdk/
// (sdk/build/build.ts names them and writes their names into the entry): the entry stays within its
// budget. The journal (its store and recovery) loads at the start where the page can journal, the
// unload compressor once a session may send, the network bundle only when the project records
// requests.

/** The modules that load on demand and what each exports. */
export interface LazyModules {
  deflate: typeof import("./lazy/deflate.ts");
  journal: typeof import("./lazy/journal.ts");
  network: typeof import("./network/mod.ts");
}

/** Entry points of the lazy modules, for the build. */
export const LAZY_ENTRIES: Record<keyof LazyModules, string> = {
  deflate: "lazy/deflate.ts",
  journal: "lazy/journal.ts",
  network: "network/mod.ts",
};

/** Hashed file names by module, defined by the build; absent where the SDK runs unbuilt (tests). */
declare const PLAYHEAD_LAZY: Partial<Record<keyof LazyModules, string>> | undefined;

/** Imports `name` from the service at `endpoint`, or resolves null when it cannot be loaded. */
export function loadLazy<K extends keyof LazyModules>(
  endpoint: string,
  name: K,
): Promise<LazyModules[K] | null> {
  const file = typeof PLAYHEAD_LAZY === "object" ? PLAYHEAD_LAZY[name] : undefined;
  if (!file) return Promise.resolve(null);
  return import(`${endpoint}/sdk/${file}`).catch(() => null);
}

/** The unload-time gzip (sdk/lazy/deflate.ts): null until loaded; `load()` asks for it once. */
export class LazyGzip {
  #gzip: ((bytes: Uint8Array) => Uint8Array) | null = null;
  #asked = false;

  constructor(readonly endpoint: string) {}

  load(): void {
    if (this.#asked) return;
    this.#asked = true;
    void loadLazy(this.endpoint, "deflate").then((m) => {
      if (m) this.#gzip = (bytes) => m.gzipSync(bytes);
    });
  }

  get(): ((bytes: Uint8Array) => Uint8Array) | null {
    return this.#gzip;
  }
}
