// Wire schemas of /api/projects (docs/decisions.md "Projects and keys"): requests as the handlers
// parse them, and the Project answer of core/projects/projects.ts (strict, so an undocumented field
// fails tests).
import { z } from "zod";
import { nameSchema as name } from "../schema.ts";
import { PUBLIC_KEY_PATTERN } from "./keys.ts";

export const projectListQuery = z.object({ organizationId: z.string().min(1).optional() });
export const projectCreateBody = z.object({ name, organizationId: z.string().min(1) });
export const projectRenameBody = z.object({ name });
export const projectDeleteBody = z.object({
  confirmation: z.string().meta({ description: 'exactly "delete project"' }),
});
// Dashboard forms name the project in a hidden field (the API has it in the path) and create
// projects in the active organization.
export const projectForm = z.object({ projectId: z.string().min(1) });
export const projectNameForm = projectCreateBody.pick({ name: true });
export const projectRenameForm = projectForm.extend(projectRenameBody.shape);
export const projectDeleteForm = projectForm.extend(projectDeleteBody.shape);
export const traitKeyBody = z.object({ traitKey: z.string().trim().min(1).max(60).nullable() });
// The settings form's field: empty clears the project's default trait key.
export const projectTraitKeyForm = projectForm.extend({
  traitKey: z.string().trim().max(60).transform((key) => key === "" ? null : key),
});

export const project = z.strictObject({
  id: z.string(),
  name: z.string(),
  maskedKey: z.string().meta({ description: "sp_ + first 4 hex + 24 bullets + last 4 hex" }),
  organizationId: z.string(),
  sessionCount: z.number().int(),
  lastUsedAt: z.iso.datetime().nullable(),
  displayNameTraitKey: z.string().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ProjectView = z.output<typeof project>;

export const projectKey = z.strictObject({ key: z.string().regex(PUBLIC_KEY_PATTERN) });
export type ProjectKey = z.output<typeof projectKey>;
