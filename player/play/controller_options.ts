// What the page hands the replay controller (player/play/controller.ts): where to draw, the recording as
// it loads and its loading state, where to open, and whom to tell when something shown changes.
import type { Recording, Size } from "@/player/load/recording.ts";
import type { LoadingState } from "@/player/load/session_feed.ts";

export interface ControllerOptions {
  root: HTMLElement;
  recording: Recording;
  /** Whether batches are still to come, the session still grows, the loading hole: the feed's. */
  loading: LoadingState;
  /** Real length of the session from its metadata, known before any event. */
  duration: number;
  /** Real offset to open at (`?t=`). */
  start: number;
  /** A moment was asked for whose events are not loaded (the loader may fetch them first). */
  onWait?(real: number): void;
  /** Something shown changed; `userAction` asks for the page at once, not on the next frame. */
  onChange(userAction?: boolean): void;
  onResize(size: Size): void;
}
