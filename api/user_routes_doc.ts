// Route docs of /api/user: the signed-in user's profile, avatar, account deletion, their invites
// and linked accounts (passkeys are in api/passkeys_routes_doc.ts).
import { z } from "zod";
import { userInvite } from "./invites_schema.ts";
import { describeRoute } from "./openapi_route.ts";
import { avatarAnswer, deleteUserBody, renameUserBody, userProfile } from "./user_schema.ts";

const answerInvite = (verb: "accept" | "decline", outcome: string) =>
  describeRoute({
    method: "post",
    path: `/api/user/invites/{inviteId}/${verb}`,
    summary: `${verb[0].toUpperCase()}${verb.slice(1)} an invite`,
    description: `${outcome} Addressed to another email → 403; past its expiry → 410 (the ` +
      "invite becomes EXPIRED); already answered or already a member → 409.",
    tag: "user",
    auth: "cookie",
    responses: { 200: { description: "the answered invite", body: userInvite } },
    errors: [409, 410],
  });

export const userRoutes = [
  describeRoute({
    method: "get",
    path: "/api/user",
    summary: "The signed-in user's profile",
    tag: "user",
    auth: "cookie",
    noStore: true,
    responses: { 200: { description: "profile", body: userProfile } },
  }),
  describeRoute({
    method: "patch",
    path: "/api/user",
    summary: "Rename the signed-in user",
    tag: "user",
    auth: "cookie",
    body: renameUserBody,
    responses: { 200: { description: "profile", body: userProfile } },
  }),
  describeRoute({
    method: "delete",
    path: "/api/user",
    summary: "Delete the signed-in user's account",
    description: "Organisations they own pass to the oldest ADMIN, else the oldest member.",
    tag: "user",
    auth: "cookie",
    body: deleteUserBody,
    responses: { 204: { description: "deleted; the cookie is cleared" } },
  }),
  describeRoute({
    method: "post",
    path: "/api/user/avatar",
    summary: "Draw a new avatar",
    tag: "user",
    auth: "cookie",
    responses: { 200: { description: "the new picture's URL", body: avatarAnswer } },
  }),
  describeRoute({
    method: "get",
    path: "/api/user/invites",
    summary: "Pending invites for the signed-in user's email",
    tag: "user",
    auth: "cookie",
    noStore: true,
    responses: { 200: { description: "invites", body: z.array(userInvite) } },
  }),
  answerInvite("accept", "Joins the organisation (made active if the user has none)."),
  answerInvite("decline", "Marks the invite DECLINED."),
  describeRoute({
    method: "delete",
    path: "/api/user/accounts/{provider}",
    summary: "Unlink an OAuth provider",
    description: "The last way to sign in cannot be unlinked (409); passkeys do not count.",
    tag: "user",
    auth: "cookie",
    params: { provider: "github or google" },
    responses: { 204: { description: "unlinked" } },
    errors: [409],
  }),
];
