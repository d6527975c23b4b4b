// Copying to the clipboard from an island, said the same way everywhere: "Copied to the
// clipboard." beside the control for a few seconds, or, when the browser refuses, how to copy by
// hand (which stays until the next try).
import { useEffect, useState } from "preact/hooks";

export const COPIED = "Copied to the clipboard.";
const COPIED_SHOWN_MS = 2_500;

export interface Copy {
  /** The status line to show (empty when there is nothing to say). */
  status: string;
  /** Copies `text`; `byHand` is the status when the browser refuses the clipboard. */
  copy(text: string, byHand: string): Promise<void>;
}

export function useCopy(): Copy {
  // A new object per outcome, so a second copy shows its status for the full time again.
  const [outcome, setOutcome] = useState({ status: "" });
  useEffect(() => {
    if (outcome.status !== COPIED) return;
    const timer = setTimeout(() => setOutcome({ status: "" }), COPIED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [outcome]);

  async function copy(text: string, byHand: string) {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome({ status: COPIED });
    } catch {
      setOutcome({ status: byHand });
    }
  }
  return { status: outcome.status, copy };
}
