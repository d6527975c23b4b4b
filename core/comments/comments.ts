// Comments on a moment of a session (docs/decisions.md "Comments"): every member, VIEWER included,
// writes and reads them; the author or an ADMIN+ deletes one.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { forbidden, notFound, validation } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { atLeast } from "@/core/permissions.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import {
  commentById,
  type CommentRow,
  commentsOfSession,
  deleteComment,
  insertComment,
} from "@/db/queries/comments/comments.ts";
import type { CommentOut, CreateCommentInput } from "./schema.ts";

type Deps = Pick<AppDeps, "db">;

export function commentOut(row: CommentRow): CommentOut {
  return {
    id: row.id,
    sessionId: row.session_id,
    offsetMs: row.offset_ms,
    text: row.text,
    authorId: row.author_id,
    authorName: row.author_name,
    createdAt: row.created_at.toISOString(),
  };
}

export async function addComment(
  deps: Deps,
  viewer: Viewer,
  sessionId: string,
  input: CreateCommentInput,
): Promise<CommentOut> {
  const db = deps.db.kysely;
  const organizationId = activeOrganization(viewer);
  const session = await findSession(db, organizationId, sessionId);
  if (!session) throw notFound("session");
  if (input.offsetMs > session.duration) {
    throw validation("offsetMs is past the session's end", [{
      path: "offsetMs",
      message: `the session lasts ${session.duration} ms`,
    }]);
  }
  const id = newRowId();
  await insertComment(db, {
    id,
    organization_id: organizationId,
    session_id: session.id,
    author_id: viewer.userId,
    offset_ms: input.offsetMs,
    text: input.text,
  });
  return commentOut((await commentById(db, organizationId, id))!);
}

export async function listComments(
  deps: Deps,
  viewer: Viewer,
  sessionId: string,
): Promise<{ comments: CommentOut[] }> {
  const db = deps.db.kysely;
  const organizationId = activeOrganization(viewer);
  if (!await findSession(db, organizationId, sessionId)) throw notFound("session");
  return { comments: (await commentsOfSession(db, organizationId, sessionId)).map(commentOut) };
}

/** The author's own, or anyone's for an ADMIN+; another organization's is 404. */
export async function removeComment(deps: Deps, viewer: Viewer, id: string): Promise<void> {
  const db = deps.db.kysely;
  const organizationId = activeOrganization(viewer);
  const found = await commentById(db, organizationId, id);
  if (!found) throw notFound("comment");
  if (found.author_id !== viewer.userId && !atLeast(viewer.role!, "ADMIN")) {
    throw forbidden("only its author or an ADMIN can delete a comment");
  }
  await deleteComment(db, organizationId, id);
}
