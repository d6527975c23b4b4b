// GET /api/sessions/:id/export?format=html|json (mounted inside the sessions sub-app, whose cookie
// middleware and no-store it shares): one replay as a file to download, streamed as it is written,
// cut in the cut worker; an account has at most MAX_EXPORTS_PER_ACCOUNT files being written.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { sessionExport } from "@/core/exports/export.ts";
import { htmlExport } from "@/core/exports/html_file.ts";
import { jsonExport } from "@/core/exports/json_file.ts";
import { exportQuery } from "@/core/exports/schema.ts";
import { onEnd } from "@/core/on_end.ts";
import { exportLimitOf } from "@/http/account_limit.ts";
import { requestTextStream } from "@/http/request_stream.ts";
import { resolveConfig } from "@/fresh/config.ts";
import freshConfig from "@/fresh.config.ts";
import { offlinePlayerScript } from "@/fresh/offline_player.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { describe } from "@/api/openapi/route.ts";
import { query } from "@/api/validate.ts";

const { buildDir } = resolveConfig(
  freshConfig,
  new URL("../../fresh.config.ts", import.meta.url).href,
);

const TYPES = { html: "text/html; charset=UTF-8", json: "application/json; charset=UTF-8" };

export function sessionExportRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get(
    "/:id/export",
    describe({
      tag: "sessions",
      auth: "cookie",
      summary: "One replay as a file: HTML that plays offline, or the raw events as JSON",
      description: "`html`: the player and the events in one file that plays in a browser " +
        "with no network (speed, seek, skip idle, History); the recorded page's images the " +
        "server could fetch (public addresses, or hosts of EXPORT_FETCH_ALLOW_HOSTS) are in it " +
        "as data URLs, and a notice lists those that are not and why. `json`: `{ session, omitted, " +
        "events }`, the rrweb events in replay order, without network requests or custom " +
        "events unless `include` names them (`omitted` lists what the file leaves out). " +
        "Neither holds the tracked user, and both cut every recorded page address to its " +
        "origin and path. Streamed; a session whose stored events weigh more than " +
        "EXPORT_MAX_BYTES (100 MiB) answers 413.",
      params: { id: "a session of the active organization" },
      responses: {
        200: { description: "the file (an attachment)", contentType: "text/html" },
      },
      errors: [400, 413, 429, 503],
    }),
    query(exportQuery),
    async (c) => {
      const { format, include } = c.req.valid("query");
      const limit = deps.config.limits.exportMaxBytes;
      const viewer = requireViewer(c);
      // Held until the file has been sent or given up: 429 + Retry-After past the limit.
      const leave = exportLimitOf(deps).enter(viewer.userId);
      try {
        const audited = { format, include: include ?? [] };
        const file = await sessionExport(deps, viewer, c.req.param("id"), limit, audited);
        const chunks = format === "json" ? jsonExport(file, include ?? [], deps.cuts) : htmlExport(
          file,
          await offlinePlayerScript(deps.config.nodeEnv === "production", buildDir),
          { allowHosts: deps.config.exportFetchAllowHosts, signal: c.req.raw.signal },
          deps.cuts,
        );
        const name = `playhead-replay-${file.session.startedAt.slice(0, 19).replace(/:/g, "-")}`;
        return c.body(requestTextStream(onEnd(chunks, leave)), 200, {
          "Content-Type": TYPES[format],
          "Content-Disposition": `attachment; filename="${name}.${format}"`,
        });
      } catch (error) {
        leave();
        throw error;
      }
    },
  );
  return app;
}
