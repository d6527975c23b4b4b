// Islands' calls to /api (same origin, with the session cookie): JSON in, JSON out, and an error
// whose message is the API's own (its error body) so islands can show it instead of a blank.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait before trying again, when the API said (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

async function failure(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  const message = typeof body?.message === "string"
    ? body.message
    : `the server answered ${res.status}`;
  const retryAfter = typeof body?.retryAfter === "number" ? body.retryAfter : undefined;
  return new ApiError(res.status, message, retryAfter);
}

/** The answer when it is a success; an ApiError otherwise (status 0: no answer at all). */
async function call(path: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, "the server could not be reached");
  }
  if (!res.ok) throw await failure(res);
  return res;
}

function jsonInit(method: string, body: unknown): RequestInit {
  return {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

export async function apiJson<T>(path: string): Promise<T> {
  const res = await call(path, { cache: "no-store", headers: { accept: "application/json" } });
  return await res.json() as T;
}

/** A POST with a JSON body whose answer is read: its JSON, or undefined for 204. */
export async function apiPost<T>(path: string, body: unknown = {}): Promise<T> {
  const res = await call(path, jsonInit("POST", body));
  return res.status === 204 ? undefined as T : await res.json() as T;
}

/** A mutation (DELETE, PATCH, POST) with an optional JSON body; the answer body is ignored. */
export async function apiSend(method: string, path: string, body?: unknown): Promise<void> {
  const res = await call(path, jsonInit(method, body));
  await res.body?.cancel();
}
