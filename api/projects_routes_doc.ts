// Route docs of /api/projects: projects of the viewer's organisations, keys and the default
// display-name trait key. Reads are no-store (session counts move with ingest).
import { z } from "zod";
import { describeRoute } from "./openapi_route.ts";
import {
  project,
  projectCreateBody,
  projectDeleteBody,
  projectKey,
  projectListQuery,
  projectRenameBody,
  traitKeyBody,
} from "./projects_schema.ts";

const tag = "projects";
const ID = { id: "a project of the active organisation" };

export const projectRoutes = [
  describeRoute({
    method: "get",
    path: "/api/projects",
    summary: "Projects, newest first",
    description: "Of every organisation the viewer belongs to, or of `organizationId`.",
    tag,
    auth: "cookie",
    query: projectListQuery,
    noStore: true,
    responses: { 200: { description: "projects", body: z.array(project) } },
  }),
  describeRoute({
    method: "post",
    path: "/api/projects",
    summary: "Create a project with a fresh key",
    tag,
    auth: "cookie",
    role: "OWNER",
    body: projectCreateBody,
    responses: { 201: { description: "created", body: project } },
  }),
  describeRoute({
    method: "patch",
    path: "/api/projects/{id}",
    summary: "Rename a project",
    tag,
    auth: "cookie",
    role: "ADMIN",
    params: ID,
    body: projectRenameBody,
    responses: { 200: { description: "renamed", body: project } },
  }),
  describeRoute({
    method: "delete",
    path: "/api/projects/{id}",
    summary: "Delete a project with its sessions",
    tag,
    auth: "cookie",
    role: "OWNER",
    params: ID,
    body: projectDeleteBody,
    responses: { 204: { description: "deleted" } },
  }),
  describeRoute({
    method: "get",
    path: "/api/projects/{id}/key",
    summary: "Reveal a project's public key",
    tag,
    auth: "cookie",
    role: "OWNER",
    params: ID,
    noStore: true,
    responses: { 200: { description: "the key", body: projectKey } },
  }),
  describeRoute({
    method: "post",
    path: "/api/projects/{id}/regenerate-key",
    summary: "Replace a project's key; ingest refuses the old one at once",
    tag,
    auth: "cookie",
    role: "OWNER",
    params: ID,
    responses: { 200: { description: "the project", body: project } },
  }),
  describeRoute({
    method: "patch",
    path: "/api/projects/{id}/display-name-trait-key",
    summary: "Set or clear the project's default display-name trait key",
    tag,
    auth: "cookie",
    role: "ADMIN",
    params: ID,
    body: traitKeyBody,
    responses: { 200: { description: "the project", body: project } },
  }),
];
