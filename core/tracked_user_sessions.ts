// One tracked user's sessions (spec §4): the sessions list's item shape, newest first, keyset
// pages; userDisplayName and userTraits are always null here (the page already shows the user).
import type { AppDeps } from "../app_deps.ts";
import { listUserSessions } from "../db/queries/tracked_user_sessions.ts";
import { validation } from "./errors.ts";
import { type SessionListItem, toSessionListItem } from "./session_list.ts";
import { decodeCursor, encodeCursor } from "./tracked_user_cursor.ts";
import { userInOrganization } from "./tracked_user_timeline.ts";
import type { Viewer } from "./viewer.ts";

const ORDER = "user-sessions:date:desc";

export async function trackedUserSessions(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  id: string,
  input: { cursor?: string; limit: number },
): Promise<{ data: SessionListItem[]; nextCursor: string | null }> {
  const user = await userInOrganization(deps, viewer, id);
  const after = input.cursor ? decodeCursor(input.cursor, ORDER) : null;
  // Ours always carry a key; a hand-made one without is as malformed as any other.
  if (after && after.key === null) {
    throw validation("invalid cursor", [{ path: "cursor", message: "malformed cursor" }]);
  }
  const rows = await listUserSessions(deps.db.kysely, user.id, {
    after: after && { key: after.key!, id: after.id },
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    // The slim shape: the user's own fields, never the display name or traits (spec §4).
    data: page.map((row) =>
      toSessionListItem({
        ...row,
        tracked_user_id: user.id,
        user_external_id: user.external_id,
        user_display_name: null,
        user_traits: null,
      })
    ),
    nextCursor: rows.length > input.limit && last
      ? encodeCursor({ order: ORDER, key: last.created_us, id: last.id })
      : null,
  };
}
