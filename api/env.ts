// Per-request variables shared by the /api middleware and handlers.
import type { Viewer } from "@/core/auth/viewer.ts";
import type { DatabaseBudget } from "@/http/database_budget.ts";
import type { PreparedIngest } from "@/core/ingest/prepare.ts";

export interface ApiEnv {
  /** `viewer` is set on cookie-authenticated sub-apps (see api/dashboard.ts); null = signed out. */
  Variables: {
    requestId: string;
    viewer: Viewer | null;
    wireBytes: number;
    /** HTTP_BODY_TIMEOUT_MS, for `body()` (api/validate.ts). */
    bodyTimeoutMs: number;
    /** The request's database budget, when it has one (paused while its body arrives). */
    databaseBudget: DatabaseBudget;
    /** The ingest body, decoded and prepared for its statement (api/ingest/ingest_body.ts). */
    ingest: PreparedIngest;
    /** The key's project records requests (api/public_key.ts); false when not known. */
    recordsNetwork: boolean;
  };
}
