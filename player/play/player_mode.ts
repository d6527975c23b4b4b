// The player's one mode at a time and how each thing that happens moves it. The controller
// (controller.ts) asks the mode what to do (tick, draw, wait) and never combines flags to find out.

export type PlayerMode =
  /**
   * The frame at the position cannot be drawn yet: rrweb is not built, or the position's events
   * are not decoded (a seek or play past what has arrived).
   */
  | { name: "waiting"; resume: boolean }
  /** Paused, the frame at the position drawn. */
  | { name: "ready" }
  | { name: "playing" }
  /** A seek was asked for; its frame is drawn on the next animation frame. */
  | { name: "seeking"; resume: boolean }
  /** Played to the end of a session still recorded: its next batch plays on as it arrives. */
  | { name: "live" }
  /** Played to the end of everything recorded. */
  | { name: "ended" };

/**
 * What happens to the player: the viewer's play, pause and seek; the controller's finding that the
 * position is `held` (not decoded) or `shown` (drawn); rrweb running out of events with everything
 * loaded and the session over (`finished`), with batches asked for still to come (`starved`), or
 * at the end of a session still recorded (`edge`); and that session's end (`finished` too).
 */
export type PlayerInput =
  | "play"
  | "pause"
  | "seek"
  | "held"
  | "shown"
  | "finished"
  | "starved"
  | "edge";

/** Before rrweb is built. */
export const BOOTING: PlayerMode = { name: "waiting", resume: false };
export const READY: PlayerMode = { name: "ready" };
export const PLAYING: PlayerMode = { name: "playing" };
export const ENDED: PlayerMode = { name: "ended" };
export const LIVE: PlayerMode = { name: "live" };

/** Whether the viewer wants it playing (`resume`: once the frame waited for is there). */
export function wantsPlay(mode: PlayerMode): boolean {
  if (mode.name === "playing" || mode.name === "live") return true;
  return (mode.name === "waiting" || mode.name === "seeking") && mode.resume;
}

/** The mode after `input`. */
export function nextMode(mode: PlayerMode, input: PlayerInput): PlayerMode {
  const resume = wantsPlay(mode);
  switch (input) {
    case "play":
      if (mode.name === "live") return LIVE;
      return mode.name === "waiting" ? { name: "waiting", resume: true } : PLAYING;
    case "pause":
      // Paused while its events load, the moment is still drawn once they are in.
      if (mode.name === "waiting") return { name: "waiting", resume: false };
      return mode.name === "ended" ? ENDED : READY;
    case "seek":
      return { name: "seeking", resume };
    case "held":
      return { name: "waiting", resume };
    case "shown":
      return resume ? PLAYING : READY;
    case "finished":
      return mode.name === "playing" || mode.name === "live" ? ENDED : mode;
    case "starved":
      return mode.name === "playing" ? { name: "waiting", resume: true } : mode;
    case "edge":
      return mode.name === "playing" ? LIVE : mode;
  }
}
