// Which public keys some project has, and whether that project records requests, remembered
// briefly, so ingest can refuse an unknown key before it reads (and gunzips, up to 32 MiB) the body,
// and knows before decoding it whether to keep the requests it carries. A refusal relies on the
// memory: a key remembered as known still goes through the write statement, which finds its
// project itself, so a deleted or regenerated key stops working at once; a key remembered as
// unknown is refused for at most UNKNOWN_TTL_MS after some project gets it (keys are random, so in
// practice never). A project's network capture turned on or off reaches this process's ingest
// within KNOWN_TTL_MS, or at once where it was saved (`forget`).
export const KNOWN_TTL_MS = 60_000;
export const UNKNOWN_TTL_MS = 10_000;
/** Bounded, so a flood of random keys cannot grow it without limit. */
const MAX_ENTRIES = 10_000;

/** What ingest reads of a key's project before its body. */
export interface KeyProject {
  /** Network capture is on (docs/decisions.md "Network capture"); off, ingest keeps no request. */
  recordsNetwork: boolean;
}

/** The key's project, or null when no project has it. */
export type KeyLookup = (key: string) => Promise<KeyProject | null>;

export class KnownKeys {
  readonly #entries = new Map<string, { project: KeyProject | null; until: number }>();
  readonly #pending = new Map<string, Promise<KeyProject | null>>();

  constructor(private readonly lookup: KeyLookup, private readonly now = () => Date.now()) {}

  /** false only when the database said no project has the key, in the last few seconds. */
  async mayExist(key: string): Promise<boolean> {
    return (await this.project(key)) !== null;
  }

  /** The key's project as the database said in the last minute; null: none has the key. */
  async project(key: string): Promise<KeyProject | null> {
    const entry = this.#entries.get(key);
    if (entry && entry.until > this.now()) return entry.project;
    // One lookup per key at a time, however many requests carry it.
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.lookup(key).finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    const project = await pending;
    this.#remember(key, project);
    return project;
  }

  /** Asks the database again at the key's next use (its project's settings changed here). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  #remember(key: string, project: KeyProject | null): void {
    this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    const ttl = project ? KNOWN_TTL_MS : UNKNOWN_TTL_MS;
    this.#entries.set(key, { project, until: this.now() + ttl });
  }
}
