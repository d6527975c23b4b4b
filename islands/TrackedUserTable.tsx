// The users list: rows as the server rendered them, "Load more" by cursor from the API, and the
// online dots kept current by the heartbeat (one request for the shown rows, paused while the tab
// is hidden). Without JavaScript, "Load more" is a link to the next page.
import { useEffect, useRef, useState } from "preact/hooks";
import type { TrackedUserItem } from "@/core/tracked_users/schema.ts";
import { type Beat, liveStatus } from "@/core/tracked_users/status.ts";
import { TrackedUserRow } from "@/components/tracked_users/TrackedUserRow.tsx";
import { TableFoot } from "@/components/ui/TableFoot.tsx";
import { apiJson } from "@/utils/api_client.ts";
import { useCursorPages } from "@/hooks/use_cursor_pages.ts";
import { whileVisible } from "@/utils/visible_interval.ts";

interface Props {
  users: TrackedUserItem[];
  nextCursor: string | null;
  /** The list's API URL without cursor, e.g. `/api/tracked-users?sort=sessions&limit=25`. */
  apiPath: string;
  /** The next page as a plain link (before hydration, or without JavaScript). */
  nextHref: string | null;
  /** The server's clock when it rendered (ISO), so the first paint matches. */
  renderedAt: string;
  /** How often to ask the heartbeat, in ms. */
  refreshMs: number;
}

/** The heartbeat endpoint takes at most this many ids per request. */
const HEARTBEAT_IDS = 100;

export default function TrackedUserTable(props: Props) {
  const pages = useCursorPages(
    { data: props.users, nextCursor: props.nextCursor },
    props.apiPath,
    "users",
  );
  const users = pages.items;
  const [beats, setBeats] = useState<Record<string, Beat>>({});
  const [now, setNow] = useState(new Date(props.renderedAt));
  const [local, setLocal] = useState(false);
  const [liveError, setLiveError] = useState("");
  const shown = useRef(users);
  shown.current = users;

  useEffect(() => {
    setLocal(true);
    setNow(new Date());
    let busy = false;
    const beat = async () => {
      if (busy) return;
      busy = true;
      try {
        const answers = await heartbeat(shown.current.map((u) => u.id));
        setBeats((known) => ({ ...known, ...answers }));
        setLiveError("");
      } catch (e) {
        setLiveError(`Live status paused: ${(e as Error).message}. Retrying.`);
      } finally {
        busy = false;
        setNow(new Date());
      }
    };
    return whileVisible(beat, props.refreshMs);
  }, [props.refreshMs]);

  return (
    <>
      <div class="table-scroll">
        <table class="table users-table" data-testid="users-table">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">User</th>
              <th scope="col">Traits</th>
              <th scope="col">Project</th>
              <th scope="col" class="num">Sessions</th>
              <th scope="col">Last seen</th>
              <th scope="col" class="num">Active (7 d)</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => {
              const beat = beats[u.id];
              return (
                <TrackedUserRow
                  key={u.id}
                  user={u}
                  status={liveStatus(u.status, beat, now)}
                  lastEventAt={beat ? beat.lastEventAt : u.lastEventAt}
                  now={now}
                  local={local}
                />
              );
            })}
          </tbody>
        </table>
      </div>
      <TableFoot
        count={users.length}
        noun={["user", "users"]}
        hasMore={pages.cursor !== null}
        error={pages.error}
        loading={pages.loading}
        nextHref={props.nextHref}
        onLoadMore={pages.loadMore}
      >
        {liveError && <span class="error-text" role="alert">{` · ${liveError}`}</span>}
      </TableFoot>
    </>
  );
}

/** The heartbeat of every id, in requests of at most HEARTBEAT_IDS. */
async function heartbeat(ids: string[]): Promise<Record<string, Beat>> {
  const chunks = [];
  for (let i = 0; i < ids.length; i += HEARTBEAT_IDS) chunks.push(ids.slice(i, i + HEARTBEAT_IDS));
  const answers = await Promise.all(
    chunks.map((chunk) =>
      apiJson<{ data: ({ id: string } & Beat)[] }>(
        `/api/tracked-users/heartbeat?ids=${chunk.map(encodeURIComponent).join(",")}`,
      )
    ),
  );
  const beats: Record<string, Beat> = {};
  for (const { id, online, lastEventAt } of answers.flatMap((a) => a.data)) {
    beats[id] = { online, lastEventAt };
  }
  return beats;
}
