// The replay page's tools beside its heading: Pin (islands/PinButton.tsx), Share
// (islands/ShareDialog.tsx) and the export menu (plain downloads of GET /api/sessions/:id/export).
import ShareDialog from "@/islands/ShareDialog.tsx";
import PinButton from "@/islands/PinButton.tsx";

interface Props {
  sessionId: string;
  canManage: boolean;
  linksAllowed: boolean;
  pinned: boolean;
}

export function ReplayTools({ sessionId, canManage, linksAllowed, pinned }: Props) {
  const exportPath = (format: string) =>
    `/api/sessions/${encodeURIComponent(sessionId)}/export?format=${format}`;
  return (
    <div class="replay-tools">
      <PinButton sessionId={sessionId} pinned={pinned} canManage={canManage} />
      <ShareDialog sessionId={sessionId} canManage={canManage} allowed={linksAllowed} />
      <details class="export-menu">
        <summary class="button">Export</summary>
        <div class="export-menu-list" role="menu">
          <a role="menuitem" href={exportPath("html")} download>
            HTML file that plays offline
          </a>
          <a role="menuitem" href={exportPath("json")} download>JSON events (rrweb)</a>
        </div>
      </details>
    </div>
  );
}
