// Which recorded events this player can replay: the event and incremental-source kinds of the rrweb
// 2.x format (full snapshot, incremental snapshot, meta, custom, console). Anything else (another
// rrweb version, a damaged event) is left out and counted, so the page can say so and play the
// rest.
import { EventType, IncrementalSource } from "@rrweb/types";

const LAST_INCREMENTAL_SOURCE = IncrementalSource.CustomElement;

export function isReplayable(event: { type: number; data: unknown }): boolean {
  const data = event.data as Record<string, unknown> | null | undefined;
  switch (event.type) {
    case EventType.DomContentLoaded:
    case EventType.Load:
      return true;
    case EventType.FullSnapshot:
      return typeof data?.node === "object" && data.node !== null;
    case EventType.IncrementalSnapshot:
      return Number.isInteger(data?.source) && (data!.source as number) >= 0 &&
        (data!.source as number) <= LAST_INCREMENTAL_SOURCE;
    case EventType.Meta:
      return typeof data?.width === "number" && typeof data?.height === "number";
    case EventType.Custom:
      return typeof data?.tag === "string";
    case EventType.Plugin:
      return typeof data?.plugin === "string";
    default:
      return false;
  }
}
