// Per-request variables shared by the /api middleware and handlers.
import type { Viewer } from "../core/auth/viewer.ts";

export interface ApiEnv {
  /** `viewer` is set on cookie-authenticated sub-apps (see api/dashboard.ts); null = signed out. */
  Variables: {
    requestId: string;
    viewer: Viewer | null;
    wireBytes: number;
    /** HTTP_BODY_TIMEOUT_MS, for `body()` (api/validate.ts). */
    bodyTimeoutMs: number;
  };
}
