// How long the server's first frame stays: until rrweb has built the first snapshot in the player's
// own frame and two more frames have been painted (the built frame is then on screen), so the swap
// shows no flash. Whether the snapshot has content does not matter: an empty page is drawn too.
import { useEffect, useState } from "preact/hooks";
import type { ReplayController } from "@/player/play/controller.ts";

export function useServerFrame(present: boolean, player: ReplayController | null): boolean {
  const [shown, setShown] = useState(present);
  const drawn = !!player?.drawn;
  useEffect(() => {
    if (!shown || !drawn) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => setShown(false));
    });
    return () => cancelAnimationFrame(frame);
  }, [shown, drawn]);
  return shown;
}
