// GET /api/avatars/{seed}.svg: the service's own avatar pictures, public and cached for a year
// (a new seed means a new URL, so a cached picture never goes stale).
import { Hono } from "hono";
import { AVATAR_SEED_PATTERN, renderAvatar } from "../core/avatar.ts";
import { notFound } from "../core/errors.ts";
import type { ApiEnv } from "./env.ts";

export function avatarRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/:file", (c) => {
    const seed = c.req.param("file").replace(/\.svg$/, "");
    if (!c.req.param("file").endsWith(".svg") || !AVATAR_SEED_PATTERN.test(seed)) {
      throw notFound("avatar");
    }
    return c.body(renderAvatar(seed), 200, {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  });
  return app;
}
