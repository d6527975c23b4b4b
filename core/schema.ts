// Wire rules shared by every area's schemas (core/<area>/schema.ts).
import { z } from "zod";

/** A display name (user, organization, project, workspace): trimmed, 1..80 characters. */
export const nameSchema = z.string().trim().min(1).max(80);
