// Islands' calls to /api (same origin, with the session cookie): JSON in, JSON out, and an error
// whose message is the API's own (the `message` of its error body) so islands can show it instead
// of a blank.

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function failure(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  const message = typeof body?.message === "string" ? body.message : `HTTP ${res.status}`;
  return new ApiError(res.status, message);
}

export async function apiJson<T>(path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { cache: "no-store", headers: { accept: "application/json" } });
  } catch {
    throw new ApiError(0, "the server could not be reached");
  }
  if (!res.ok) throw await failure(res);
  return await res.json() as T;
}

/** A mutation (DELETE, PATCH, POST) with an optional JSON body; the answer body is ignored. */
export async function apiSend(method: string, path: string, body?: unknown): Promise<void> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "the server could not be reached");
  }
  if (!res.ok) throw await failure(res);
}
