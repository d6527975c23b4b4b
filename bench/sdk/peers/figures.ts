// The figures of one visit, per recorded minute or second, as the table reports them.
import type { VisitResult } from "./measure.ts";

export interface Figures {
  page: string;
  recorder: string;
  kbPerMinute: number;
  requestsPerMinute: number;
  /** Renderer main-thread CPU ms per second of the visit. */
  cpuMsPerSecond: number;
  longestTaskMs: number;
  /** The longest task once the page had loaded and the recorder had its first full snapshot. */
  longestTaskRecordingMs: number;
  firstSnapshotMs: number | null;
  /** JS heap after GC at minute 2 minus at minute 1, KB; null when the visit was shorter. */
  heapGrowthKb: number | null;
  pageErrors: string[];
}

export function figures(r: VisitResult): Figures {
  const minutes = r.visitMs / 60_000;
  const bytes = r.requests.reduce((sum, q) => sum + q.wireBytes, 0);
  return {
    page: r.page,
    recorder: r.recorder,
    kbPerMinute: bytes / 1024 / minutes,
    requestsPerMinute: r.requests.length / minutes,
    cpuMsPerSecond: r.taskMs / (r.visitMs / 1000),
    longestTaskMs: r.longestTaskMs,
    longestTaskRecordingMs: r.longestTaskRecordingMs,
    firstSnapshotMs: r.firstSnapshotMs,
    heapGrowthKb: r.heapAtMinute.length >= 2
      ? (r.heapAtMinute[1] - r.heapAtMinute[0]) / 1024
      : null,
    pageErrors: r.pageErrors,
  };
}
