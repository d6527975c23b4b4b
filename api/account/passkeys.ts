// /api/user/passkeys: the signed-in user's own passkeys — list, read, rename (1..50 characters),
// delete. Another user's passkey answers 404, as an unknown one does. Mounted inside the user
// sub-app, whose middleware checks the origin and resolves the viewer.
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  deletePasskey,
  getPasskey,
  listPasskeys,
  renamePasskey,
} from "@/core/auth/passkeys/passkeys.ts";
import { credentialId, renameBody } from "@/core/auth/passkeys/schema.ts";
import { notFound } from "@/core/errors.ts";
import { passkey } from "@/core/account/schema.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "passkeys", auth: "cookie", ...route });
const ID = { credentialId: "base64url credential id of one of the viewer's passkeys" };

/** The path's credential id; one that cannot exist is as unknown as any other (404). */
function idOf(raw: string): string {
  const parsed = credentialId.safeParse(raw);
  if (!parsed.success) throw notFound("passkey");
  return parsed.data;
}

export function userPasskeyRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get(
    "/",
    doc({
      summary: "The signed-in user's passkeys",
      responses: { 200: { description: "passkeys", body: z.array(passkey) } },
    }),
    noStore(),
    async (c) => c.json(await listPasskeys(deps, requireViewer(c))),
  );

  app.get(
    "/:credentialId",
    doc({
      summary: "One of the signed-in user's passkeys",
      params: ID,
      responses: { 200: { description: "the passkey", body: passkey } },
    }),
    noStore(),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await getPasskey(deps, viewer, idOf(c.req.param("credentialId"))));
    },
  );

  app.patch(
    "/:credentialId",
    doc({
      summary: "Rename a passkey",
      params: ID,
      responses: { 200: { description: "the passkey", body: passkey } },
    }),
    body(renameBody),
    async (c) => {
      const viewer = requireViewer(c);
      const id = idOf(c.req.param("credentialId"));
      return c.json(await renamePasskey(deps, viewer, id, c.req.valid("json").name));
    },
  );

  app.delete(
    "/:credentialId",
    doc({
      summary: "Delete a passkey",
      params: ID,
      responses: { 204: { description: "deleted" } },
    }),
    async (c) => {
      await deletePasskey(deps, requireViewer(c), idOf(c.req.param("credentialId")));
      return c.body(null, 204);
    },
  );

  return app;
}
