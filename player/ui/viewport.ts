// Fits the recorded viewport into the player slot: scale = min(slot width / recorded
// width, slot height / recorded height), centred in the slot.
import type { Size } from "@/player/load/recording.ts";

export interface Fit {
  scale: number;
  left: number;
  top: number;
}

export function fitViewport(slot: Size, recorded: Size): Fit {
  if (recorded.width <= 0 || recorded.height <= 0) return { scale: 1, left: 0, top: 0 };
  const scale = Math.min(slot.width / recorded.width, slot.height / recorded.height);
  return {
    scale,
    left: (slot.width - recorded.width * scale) / 2,
    top: (slot.height - recorded.height * scale) / 2,
  };
}
