// /api/projects: list, read and create projects, rename and set recording settings, delete, reveal and regenerate keys, and the
// project's default display-name trait key. Reads are no-store (session counts move with ingest).
import type { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  regenerateProjectKey,
  revealProjectKey,
  updateProject,
} from "@/core/projects/projects.ts";
import {
  project,
  projectCreateBody,
  projectDeleteBody,
  projectKey,
  projectListQuery,
  projectPatchBody,
  projectPatched,
  traitKeyBody,
} from "@/core/projects/schema.ts";
import { dashboardApp, requireSignIn, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body, query } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "projects", auth: "cookie", ...route });
const ID = { id: "a project of the active organization" };

export function projectRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  app.use(requireSignIn()); // 401 before a body is read

  app.get(
    "/",
    doc({
      summary: "Projects, newest first",
      description: "Of every organization the viewer belongs to, or of `organizationId`.",
      responses: { 200: { description: "projects", body: z.array(project) } },
    }),
    noStore(),
    query(projectListQuery),
    async (c) => c.json(await listProjects(deps, requireViewer(c), c.req.valid("query"))),
  );

  app.post(
    "/",
    doc({
      summary: "Create a project with a fresh key",
      role: "OWNER",
      responses: { 201: { description: "created", body: project } },
    }),
    body(projectCreateBody),
    async (c) => c.json(await createProject(deps, requireViewer(c), c.req.valid("json")), 201),
  );

  app.get(
    "/:id",
    doc({
      summary: "One project, with its recording settings",
      params: ID,
      responses: { 200: { description: "the project", body: project } },
    }),
    noStore(),
    async (c) => c.json(await getProject(deps, requireViewer(c), { id: c.req.param("id") })),
  );

  app.patch(
    "/:id",
    doc({
      summary: "Rename a project or change its recording, network or retention settings",
      description: "`recording` and `network` may come alone, and only the settings they name " +
        "change. `retentionDays` (1–365) answers `sessionsToDelete`: the sessions the next " +
        "daily cleanup deletes under it. Any bad value is 400 naming its field, and nothing " +
        "changes.",
      role: "ADMIN",
      params: ID,
      responses: { 200: { description: "the project", body: projectPatched } },
    }),
    body(projectPatchBody),
    async (c) => {
      const input = { id: c.req.param("id"), ...c.req.valid("json") };
      return c.json(await updateProject(deps, requireViewer(c), input));
    },
  );

  app.delete(
    "/:id",
    doc({
      summary: "Delete a project with its sessions",
      role: "OWNER",
      params: ID,
      responses: { 204: { description: "deleted" } },
    }),
    body(projectDeleteBody),
    async (c) => {
      const input = { id: c.req.param("id"), ...c.req.valid("json") };
      await deleteProject(deps, requireViewer(c), input);
      return c.body(null, 204);
    },
  );

  app.get(
    "/:id/key",
    doc({
      summary: "Reveal a project's public key",
      role: "OWNER",
      params: ID,
      responses: { 200: { description: "the key", body: projectKey } },
    }),
    noStore(),
    async (c) => c.json(await revealProjectKey(deps, requireViewer(c), { id: c.req.param("id") })),
  );

  app.post(
    "/:id/regenerate-key",
    doc({
      summary: "Replace a project's key; ingest refuses the old one at once",
      role: "OWNER",
      params: ID,
      responses: { 200: { description: "the project", body: project } },
    }),
    async (c) => {
      const input = { id: c.req.param("id") };
      return c.json(await regenerateProjectKey(deps, requireViewer(c), input));
    },
  );

  app.patch(
    "/:id/display-name-trait-key",
    doc({
      summary: "Set or clear the project's default display-name trait key",
      role: "ADMIN",
      params: ID,
      responses: { 200: { description: "the project", body: project } },
    }),
    body(traitKeyBody),
    async (c) => {
      const input = { id: c.req.param("id"), displayNameTraitKey: c.req.valid("json").traitKey };
      return c.json(await updateProject(deps, requireViewer(c), input));
    },
  );

  return app;
}
