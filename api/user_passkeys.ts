// /api/user/passkeys: the signed-in user's own passkeys — list, read, rename (1..50 characters),
// delete. Another user's passkey answers 404, as an unknown one does. Mounted inside the user
// sub-app, whose middleware checks the origin and resolves the viewer.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { deletePasskey, getPasskey, listPasskeys, renamePasskey } from "../core/passkeys.ts";
import { notFound } from "../core/errors.ts";
import { requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import { credentialId, renameBody } from "./passkeys_schema.ts";
import { parseWith } from "./validate.ts";

export function userPasskeyRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  /** The path's credential id; one that cannot exist is as unknown as any other (404). */
  const idOf = (raw: string) => {
    const parsed = credentialId.safeParse(raw);
    if (!parsed.success) throw notFound("passkey");
    return parsed.data;
  };

  app.get("/", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await listPasskeys(deps, requireViewer(c)));
  });

  app.get("/:credentialId", async (c) => {
    const viewer = requireViewer(c);
    c.header("Cache-Control", "no-store");
    return c.json(await getPasskey(deps, viewer, idOf(c.req.param("credentialId"))));
  });

  app.patch("/:credentialId", async (c) => {
    const viewer = requireViewer(c);
    const id = idOf(c.req.param("credentialId"));
    const input = parseWith(renameBody, await c.req.json().catch(() => null), "body");
    return c.json(await renamePasskey(deps, viewer, id, input.name));
  });

  app.delete("/:credentialId", async (c) => {
    const viewer = requireViewer(c);
    await deletePasskey(deps, viewer, idOf(c.req.param("credentialId")));
    return c.body(null, 204);
  });

  return app;
}
