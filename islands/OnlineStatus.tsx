// A tracked user's live status in the page header: online (their latest session ended within the
// threshold) or when they were last seen, kept current from the heartbeat endpoint while the tab
// is visible.
import { useEffect, useState } from "preact/hooks";
import type { TrackedUserStatusAnswer } from "@/core/tracked_users/schema.ts";
import { Time } from "@/components/ui/Time.tsx";
import { apiJson } from "@/utils/api_client.ts";
import { whileVisible } from "@/utils/visible_interval.ts";

interface Props {
  userId: string;
  online: boolean;
  lastEventAt: string | null;
  /** The server's clock when it rendered (ISO), so the first paint matches. */
  renderedAt: string;
  intervalMs: number;
}

export default function OnlineStatus(props: Props) {
  const [status, setStatus] = useState<TrackedUserStatusAnswer>({
    online: props.online,
    lastEventAt: props.lastEventAt,
  });
  const [now, setNow] = useState(new Date(props.renderedAt));
  const [local, setLocal] = useState(false);
  const [error, setError] = useState("");

  useEffect(() => {
    setLocal(true);
    setNow(new Date());
    let busy = false;
    const poll = async () => {
      if (busy) return;
      busy = true;
      try {
        setStatus(
          await apiJson<TrackedUserStatusAnswer>(
            `/api/tracked-users/${encodeURIComponent(props.userId)}/status`,
          ),
        );
        setError("");
      } catch (e) {
        setError((e as Error).message);
      } finally {
        busy = false;
        setNow(new Date());
      }
    };
    return whileVisible(poll, props.intervalMs);
  }, [props.userId, props.intervalMs]);

  return (
    <span class="online-status" data-testid="online-status" data-online={String(status.online)}>
      <span class="dot" data-online={String(status.online)} aria-hidden="true" />
      {status.online ? <strong>Online now</strong> : (
        <span>
          {status.lastEventAt
            ? (
              <>
                Last seen <Time iso={status.lastEventAt} now={now} local={local} />
              </>
            )
            : "Never seen"}
        </span>
      )}
      {error && <span class="error-text" role="status" title={error}>· status not updating</span>}
    </span>
  );
}
