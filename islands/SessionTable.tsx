// A sessions list (all sessions, or one tracked user's): rows as the server rendered them, then
// "Load more" by cursor from the API, and deletion for ADMIN+. Without JavaScript, "Load more" is
// a link to the next page.
import { useEffect, useState } from "preact/hooks";
import type { SessionListItem } from "../core/sessions/schema.ts";
import { SessionRow } from "../components/sessions/SessionRow.tsx";
import { apiJson, apiSend } from "../utils/api_client.ts";

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

interface Page {
  data: SessionListItem[];
  nextCursor: string | null;
}

export default function SessionTable(props: Props) {
  const [sessions, setSessions] = useState(props.sessions);
  const [cursor, setCursor] = useState(props.nextCursor);
  const [now, setNow] = useState(new Date(props.renderedAt));
  const [local, setLocal] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState("");
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  useEffect(() => {
    setLocal(true);
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);

  async function loadMore(event: Event) {
    event.preventDefault();
    if (!cursor || loading) return;
    setLoading(true);
    setError("");
    try {
      const page = await apiJson<Page>(`${props.apiPath}&cursor=${encodeURIComponent(cursor)}`);
      setSessions((shown) => [...shown, ...page.data]);
      setCursor(page.nextCursor);
    } catch (e) {
      setError(`Could not load more sessions: ${(e as Error).message}`);
    } finally {
      setLoading(false);
    }
  }

  async function remove(id: string) {
    setDeleting(id);
    setError("");
    try {
      await apiSend("DELETE", `/api/sessions/${encodeURIComponent(id)}`);
      setSessions((shown) => shown.filter((s) => s.id !== id));
    } catch (e) {
      setError(`Could not delete the session: ${(e as Error).message}`);
    } finally {
      setDeleting(null);
      setConfirming(null);
    }
  }

  const columns = props.showUser ? 7 : 6;
  return (
    <>
      <div class="table-scroll">
        <table class="table" data-testid="sessions-table">
          <thead>
            <tr>
              {props.showUser && <th scope="col">User</th>}
              <th scope="col">Entry page</th>
              <th scope="col">Project</th>
              <th scope="col" class="num">Duration</th>
              <th scope="col" class="num">Events</th>
              <th scope="col">Started</th>
              <th scope="col" class="actions">
                <span class="visually-hidden">Actions</span>
              </th>
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
      <div class="table-foot">
        <span aria-live="polite">
          {error ? <span class="error-text" role="alert">{error}</span> : (
            `Showing ${sessions.length} session${sessions.length === 1 ? "" : "s"}` +
            (cursor ? "" : " · end of the list")
          )}
        </span>
        {cursor && (
          <a
            class="button"
            href={props.nextHref ?? "#"}
            onClick={loadMore}
            aria-disabled={loading ? "true" : undefined}
          >
            {loading ? "Loading…" : "Load more"}
          </a>
        )}
      </div>
    </>
  );
}
