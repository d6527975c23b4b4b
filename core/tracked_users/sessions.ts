// One tracked user's sessions: the sessions list's item shape, newest first, keyset
// pages; userDisplayName and userTraits are always null here (the page already shows the user).
import type { AppDeps } from "@/core/deps.ts";
import { listUserSessions } from "@/db/queries/tracked_users/sessions.ts";
import { toSessionListItem } from "@/core/sessions/list.ts";
import type { SessionListItem } from "@/core/sessions/schema.ts";
import { decodeKeyedCursor, encodeCursor } from "@/core/cursor.ts";
import { userInOrganization } from "./timeline.ts";
import type { Viewer } from "@/core/auth/viewer.ts";

const ORDER = "user-sessions:date:desc";

export async function trackedUserSessions(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  id: string,
  input: { cursor?: string; limit: number },
): Promise<{ data: SessionListItem[]; nextCursor: string | null }> {
  const user = await userInOrganization(deps, viewer, id);
  const after = input.cursor ? decodeKeyedCursor(input.cursor, ORDER) : null;
  const rows = await listUserSessions(deps.db.kysely, user.id, {
    after: after && { key: after.key!, id: after.id },
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    // The slim shape: the user's own fields, never the display name or traits.
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
      ? encodeCursor({ order: ORDER, key: last.started_us, id: last.id })
      : null,
  };
}
