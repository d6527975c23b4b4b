// /api/projects: list and create projects, rename, delete, reveal and regenerate keys, and the
// project's default display-name trait key. Reads are no-store (session counts move with ingest).
import type { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import {
  createProject,
  deleteProject,
  listProjects,
  regenerateProjectKey,
  revealProjectKey,
  updateProject,
} from "../core/projects.ts";
import { dashboardApp, requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import {
  projectCreateBody as createSchema,
  projectDeleteBody as confirmSchema,
  projectListQuery as listQuery,
  projectRenameBody as renameSchema,
  traitKeyBody as traitKeySchema,
} from "./projects_schema.ts";
import { parseWith } from "./validate.ts";

const body = async (c: { req: { json(): Promise<unknown> } }) =>
  await c.req.json().catch(() => null);

export function projectRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);

  app.get("/", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(listQuery, c.req.query(), "query");
    c.header("Cache-Control", "no-store");
    return c.json(await listProjects(deps, viewer, input));
  });

  app.post("/", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(createSchema, await body(c), "body");
    return c.json(await createProject(deps, viewer, input), 201);
  });

  app.patch("/:id", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(renameSchema, await body(c), "body");
    return c.json(await updateProject(deps, viewer, { id: c.req.param("id"), ...input }));
  });

  app.delete("/:id", async (c) => {
    const viewer = requireViewer(c);
    const { confirmation } = parseWith(confirmSchema, await body(c), "body");
    await deleteProject(deps, viewer, { id: c.req.param("id"), confirmation });
    return c.body(null, 204);
  });

  app.get("/:id/key", async (c) => {
    const viewer = requireViewer(c);
    c.header("Cache-Control", "no-store");
    return c.json(await revealProjectKey(deps, viewer, { id: c.req.param("id") }));
  });

  app.post("/:id/regenerate-key", async (c) => {
    const viewer = requireViewer(c);
    return c.json(await regenerateProjectKey(deps, viewer, { id: c.req.param("id") }));
  });

  app.patch("/:id/display-name-trait-key", async (c) => {
    const viewer = requireViewer(c);
    const { traitKey } = parseWith(traitKeySchema, await body(c), "body");
    return c.json(
      await updateProject(deps, viewer, { id: c.req.param("id"), displayNameTraitKey: traitKey }),
    );
  });

  return app;
}
