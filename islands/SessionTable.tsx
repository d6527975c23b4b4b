// A sessions list (all sessions, or one tracked user's): rows as the server rendered them, then
// "Load more" by cursor from the API, and pins and deletion for ADMIN+. Without JavaScript, "Load
// more" is a link to the next page.
import { useEffect, useState } from "preact/hooks";
import type { SessionListItem } from "@/core/sessions/schema.ts";
import { SessionRow } from "@/components/sessions/SessionRow.tsx";
import { TableFoot } from "@/components/ui/TableFoot.tsx";
import { ActionsHeader } from "@/components/ui/ActionsHeader.tsx";
import { apiSend } from "@/utils/api_client.ts";
import { announceSessionsChanged } from "@/utils/sessions_changed.ts";
import { useCursorPages } from "@/hooks/use_cursor_pages.ts";

interface Props {
  sessions: SessionListItem[];
  nextCursor: string | null;
  /** The list's API URL without cursor, e.g. `/api/sessions?range=7d&limit=20`. */
  apiPath: string;
  /** The next page as a plain link (before hydration, or without JavaScript). */
  nextHref: string | null;
  showUser: boolean;
  canDelete: boolean;
  /** The server's clock when it rendered (ISO), so the first paint matches. */
  renderedAt: string;
}

export default function SessionTable(props: Props) {
  const pages = useCursorPages(
    { data: props.sessions, nextCursor: props.nextCursor },
    props.apiPath,
    "sessions",
  );
  const { items: sessions, setItems: setSessions, error, setError } = pages;
  const [now, setNow] = useState(new Date(props.renderedAt));
  const [local, setLocal] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [pinning, setPinning] = useState<string | null>(null);

  useEffect(() => {
    setLocal(true);
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);

  async function remove(id: string) {
    setDeleting(id);
    setError("");
    try {
      await apiSend("DELETE", `/api/sessions/${encodeURIComponent(id)}`);
      setSessions((shown) => shown.filter((s) => s.id !== id));
      announceSessionsChanged(); // the KPI cards read their numbers again
    } catch (e) {
      setError(`Could not delete the session: ${(e as Error).message}`);
    } finally {
      setDeleting(null);
      setConfirming(null);
    }
  }

  async function pin(id: string, pinned: boolean) {
    setPinning(id);
    setError("");
    try {
      await apiSend(pinned ? "POST" : "DELETE", `/api/sessions/${encodeURIComponent(id)}/pin`);
      setSessions((shown) => shown.map((s) => s.id === id ? { ...s, pinned } : s));
    } catch (e) {
      setError(`Could not ${pinned ? "pin" : "unpin"} the session: ${(e as Error).message}`);
    } finally {
      setPinning(null);
    }
  }

  const columns = props.showUser ? 9 : 8;
  return (
    <>
      <div class="table-scroll">
        <table class="table sessions-table" data-testid="sessions-table">
          <thead>
            <tr>
              {props.showUser && <th scope="col">User</th>}
              <th scope="col">Entry page</th>
              <th scope="col">Project</th>
              <th scope="col">Signals</th>
              <th scope="col">Client</th>
              <th scope="col" class="num">Duration</th>
              <th scope="col" class="num">Events</th>
              <th scope="col">Started</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <SessionRow
                key={s.id}
                session={s}
                now={now}
                local={local}
                showUser={props.showUser}
                onDelete={props.canDelete ? () => remove(s.id) : undefined}
                confirming={confirming === s.id}
                onConfirming={(on) => setConfirming(on ? s.id : null)}
                deleting={deleting === s.id}
                onPin={props.canDelete ? (on) => pin(s.id, on) : undefined}
                pinning={pinning === s.id}
              />
            ))}
            {sessions.length === 0 && (
              <tr>
                <td colSpan={columns} class="muted">No sessions left on this page.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <TableFoot
        count={sessions.length}
        noun={["session", "sessions"]}
        hasMore={pages.cursor !== null}
        error={error}
        loading={pages.loading}
        nextHref={props.nextHref}
        onLoadMore={pages.loadMore}
      />
    </>
  );
}
