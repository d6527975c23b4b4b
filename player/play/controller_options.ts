// What the page hands the replay controller (player/play/controller.ts): where to draw, the recording as
// it loads, where to open, and whom to tell when something shown changes.
import type { Recording } from "@/player/load/recording.ts";
import type { Size } from "@/player/ui/viewport.ts";

export interface ControllerOptions {
  root: HTMLElement;
  recording: Recording;
  /** Real length of the session from its metadata, known before any event. */
  duration: number;
  /** Real offset to open at (`?t=`). */
  start: number;
  /**
   * The batches before the moment opened at come after the rest (`?from=`, then `?before=`): the
   * player starts with a hole from the session start (`LoadingHole`).
   */
  headFirst?: boolean;
  /** The session can still grow (the page follows it): played to its end, the player waits live. */
  growing?: boolean;
  /** A moment was asked for whose events are not loaded (the loader may fetch them first). */
  onWait?(real: number): void;
  /** Something shown changed; `userAction` asks for the page at once, not on the next frame. */
  onChange(userAction?: boolean): void;
  onResize(size: Size): void;
}
