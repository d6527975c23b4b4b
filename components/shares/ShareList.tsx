// The session's public links in the Share dialog: window, expiry, views, status, and Revoke for
// ADMIN+.
import type { ShareOut } from "@/core/shares/schema.ts";
import { clock } from "@/player/ui/format.ts";

const when = (iso: string | null) => iso ? iso.slice(0, 16).replace("T", " ") + " UTC" : "never";

function windowOf(share: ShareOut): string {
  if (share.startMs === null && share.endMs === null) return "whole session";
  return `${clock(share.startMs ?? 0)}–${share.endMs === null ? "end" : clock(share.endMs)}`;
}

interface Props {
  shares: ShareOut[];
  canManage: boolean;
  onRevoke(share: ShareOut): void;
}

export function ShareList({ shares, canManage, onRevoke }: Props) {
  if (shares.length === 0) return <p class="muted">No links to this session yet.</p>;
  return (
    <table class="share-list">
      <thead>
        <tr>
          <th>Shows</th>
          <th>Expires</th>
          <th>Views</th>
          <th>Last viewed</th>
          <th>Status</th>
          {canManage && <th />}
        </tr>
      </thead>
      <tbody>
        {shares.map((share) => (
          <tr key={share.id} data-status={share.status}>
            <td>
              {windowOf(share)}
              {share.showConsole && <span class="muted">· console</span>}
            </td>
            <td>{when(share.expiresAt)}</td>
            <td>{share.views}</td>
            <td>{when(share.lastViewedAt)}</td>
            <td>
              <span class={`badge status-${share.status}`}>{share.status}</span>
            </td>
            {canManage && (
              <td>
                {share.status === "active" && (
                  <button
                    type="button"
                    class="danger small"
                    onClick={() => onRevoke(share)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
