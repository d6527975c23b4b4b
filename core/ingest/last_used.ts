// Best-effort `lastUsedAt` bookkeeping: at most one write per project per minute per process,
// never awaited by the request and never failing it.
import { log } from "@/log.ts";

const MIN_INTERVAL_MS = 60_000;

export class LastUsedTracker {
  readonly #lastWrite = new Map<string, number>();
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly write: (projectId: string) => Promise<void>) {}

  touch(projectId: string, now = Date.now()): void {
    const last = this.#lastWrite.get(projectId);
    if (last !== undefined && now - last < MIN_INTERVAL_MS) return;
    this.#lastWrite.set(projectId, now);
    const pending = this.write(projectId).catch((error) => {
      this.#lastWrite.delete(projectId); // try again on the next request
      log.warn("project:last_used:failed", { projectId, error: String(error) });
    }).finally(() => this.#pending.delete(pending));
    this.#pending.add(pending);
  }

  /** Waits for writes in flight (shutdown, tests). */
  async settle(): Promise<void> {
    await Promise.all(this.#pending);
  }
}
