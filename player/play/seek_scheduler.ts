// Coalesces seeks while the user scrubs: many requests within one animation frame become one seek
// to the latest target, and a seek still working (a chunked fast-forward) learns it was superseded
// so it stops touching the DOM.

/** How a frame is waited for; the browser's by default, a fake one in tests. */
export interface FrameClock {
  request(callback: () => void): number;
  cancel(handle: number): void;
}

const browserFrames: FrameClock = {
  request: (callback) => requestAnimationFrame(callback),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/** Runs one seek; `superseded()` turns true once a newer target was requested or it was stopped. */
export type ApplySeek = (target: number, superseded: () => boolean) => void | Promise<void>;

export class SeekScheduler {
  #target: number | null = null;
  #frame: number | null = null;
  #generation = 0;
  #running = 0;

  constructor(private readonly apply: ApplySeek, private readonly frames = browserFrames) {}

  /** The target waiting for the next frame, or null. */
  get pending(): number | null {
    return this.#target;
  }

  /** A seek was asked for and has not finished yet (waiting for its frame or still working). */
  get busy(): boolean {
    return this.#target !== null || this.#running > 0;
  }

  /** Seeks to `target` on the next frame, replacing any target not applied yet. */
  request(target: number) {
    this.#target = target;
    this.#generation++;
    this.#frame ??= this.frames.request(() => this.#run());
  }

  /** Forgets the waiting target and tells a running seek to stop. */
  cancel() {
    this.#target = null;
    this.#generation++;
    if (this.#frame !== null) this.frames.cancel(this.#frame);
    this.#frame = null;
  }

  async #run() {
    this.#frame = null;
    const target = this.#target;
    if (target === null) return;
    this.#target = null;
    const generation = this.#generation;
    this.#running++;
    try {
      await this.apply(target, () => generation !== this.#generation);
    } finally {
      this.#running--;
    }
  }
}
