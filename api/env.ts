// Per-request variables shared by the /api middleware and handlers.
export interface ApiEnv {
  Variables: { requestId: string };
}
