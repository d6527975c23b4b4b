// GET /api/avatars/{seed}.svg: the service's own avatar pictures, public and cached for a year
// (a new seed means a new URL, so a cached picture never goes stale).
import { Hono } from "hono";
import { AVATAR_SEED_PATTERN, renderAvatar } from "@/core/service/avatar.ts";
import { notFound } from "@/core/errors.ts";
import type { ApiEnv } from "@/api/env.ts";
import { describe } from "@/api/openapi/route.ts";

const CACHED_FOR_A_YEAR = "public, max-age=31536000, immutable";

export function avatarRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get(
    "/:file",
    describe({
      summary: "An avatar picture rendered by the service",
      description: "Cached for a year: a new seed means a new URL.",
      tag: "service",
      auth: "none",
      params: { file: "`{seed}.svg`" },
      responses: {
        200: {
          description: "the picture",
          contentType: "image/svg+xml",
          headers: { "Cache-Control": CACHED_FOR_A_YEAR },
        },
      },
    }),
    (c) => {
      const seed = c.req.param("file").replace(/\.svg$/, "");
      if (!c.req.param("file").endsWith(".svg") || !AVATAR_SEED_PATTERN.test(seed)) {
        throw notFound("avatar");
      }
      return c.body(renderAvatar(seed), 200, {
        "Content-Type": "image/svg+xml; charset=utf-8",
        "Cache-Control": CACHED_FOR_A_YEAR,
      });
    },
  );
  return app;
}
