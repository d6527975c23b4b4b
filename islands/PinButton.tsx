// The replay page's pin toggle (docs/decisions.md "Retention per project"): ADMIN+ pins the
// session so it outlives its project's retention, or unpins it; others see whether it is pinned.
import { useState } from "preact/hooks";
import { apiSend } from "@/utils/api_client.ts";

interface Props {
  sessionId: string;
  pinned: boolean;
  canManage: boolean;
}

export default function PinButton({ sessionId, canManage, ...props }: Props) {
  const [pinned, setPinned] = useState(props.pinned);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  if (!canManage) {
    return pinned
      ? <span class="badge" title="Kept past its project's retention">Pinned</span>
      : null;
  }
  async function toggle() {
    setBusy(true);
    setError("");
    try {
      await apiSend(
        pinned ? "DELETE" : "POST",
        `/api/sessions/${encodeURIComponent(sessionId)}/pin`,
      );
      setPinned(!pinned);
    } catch (e) {
      setError(`Could not ${pinned ? "unpin" : "pin"}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <button
        type="button"
        class={pinned ? "button" : "button ghost"}
        aria-pressed={pinned}
        title={pinned
          ? "Pinned: kept past its project's retention. Click to unpin."
          : "Pin: keep past its project's retention"}
        disabled={busy}
        onClick={toggle}
        data-testid="pin-button"
      >
        {pinned ? "Pinned" : "Pin"}
      </button>
      {error && <span class="small error" role="alert">{error}</span>}
    </>
  );
}
