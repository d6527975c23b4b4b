// Wire schemas of comments on a moment of a session (docs/decisions.md "Comments"): what a member
// writes and what every member reads back.
import { z } from "zod";

export const MAX_COMMENT_CHARS = 2_000;

export const createCommentBody = z.strictObject({
  offsetMs: z.number().int().min(0).max(1e12).meta({
    description: "ms from the session's first event",
  }),
  text: z.string().trim().min(1).max(MAX_COMMENT_CHARS).meta({
    description: "1..2,000 characters, shown as text (links made clickable for http(s) only)",
  }),
});
export type CreateCommentInput = z.output<typeof createCommentBody>;

export const comment = z.strictObject({
  id: z.string(),
  sessionId: z.string(),
  offsetMs: z.number().int(),
  text: z.string(),
  authorId: z.string().nullable().meta({ description: "null once the author's account is gone" }),
  authorName: z.string().nullable().meta({ description: "the author's name or email" }),
  createdAt: z.iso.datetime(),
});
export type CommentOut = z.output<typeof comment>;

export const commentList = z.strictObject({ comments: z.array(comment) });
