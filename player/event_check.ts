// Which recorded events this player can replay: the event and incremental-source kinds of the rrweb
// 2.x format (full snapshot, incremental snapshot, meta, custom, console). Anything else (another
// rrweb version, a damaged event) is left out and counted, so the page can say so and play the
// rest.

const INCREMENTAL_SOURCES = 16; // Mutation (0) … CustomElement (16)

export function isReplayable(event: { type: number; data: unknown }): boolean {
  const data = event.data as Record<string, unknown> | null | undefined;
  switch (event.type) {
    case 0:
    case 1:
      return true;
    case 2:
      return typeof data?.node === "object" && data.node !== null;
    case 3:
      return Number.isInteger(data?.source) && (data!.source as number) >= 0 &&
        (data!.source as number) <= INCREMENTAL_SOURCES;
    case 4:
      return typeof data?.width === "number" && typeof data?.height === "number";
    case 5:
      return typeof data?.tag === "string";
    case 6:
      return typeof data?.plugin === "string";
    default:
      return false;
  }
}
