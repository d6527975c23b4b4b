// A session's recorded requests for the replay's Network tab: its batches decoded in replay order
// and the `rrweb/network@1` events' requests (bounded by ingest, core/ingest/network.ts) listed
// with their offset from the session's start. At most MAX_LISTED_REQUESTS are listed.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import {
  durationMs,
  isNetworkEvent,
  type NetworkRequest,
  networkRequestSchema,
} from "@/core/ingest/network.ts";
import { decodeBatch, type RecordedEvent } from "@/player/decode/decode.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { sessionBatches } from "./detail.ts";
import type { NetworkRequestOut, SessionNetwork } from "./schema.ts";

export const MAX_LISTED_REQUESTS = 5000;

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store">>;

export async function sessionNetworkList(
  deps: Deps,
  viewer: Viewer,
  id: string,
): Promise<SessionNetwork> {
  const session = await findSession(deps.db.kysely, activeOrganization(viewer), id);
  if (!session) throw notFound("session");
  const batches = await sessionBatches(deps, session);
  const start = session.started_at.getTime();
  const data: NetworkRequestOut[] = [];
  let truncated = false;
  for await (const batch of batches) {
    let events: RecordedEvent[];
    try {
      events = batch.data ? await decodeBatch(batch.data) : [];
    } catch {
      continue; // a corrupt batch: the replay shows its notice
    }
    for (const event of events) {
      if (!isNetworkEvent(event)) continue;
      const requests = (event.data as { payload?: { requests?: unknown[] } }).payload?.requests;
      for (const raw of requests ?? []) {
        const parsed = networkRequestSchema.safeParse(raw);
        if (!parsed.success) continue;
        if (data.length === MAX_LISTED_REQUESTS) truncated = true;
        else data.push(listed(parsed.data, start));
      }
    }
  }
  data.sort((a, b) => a.offsetMs - b.offsetMs);
  return { data, truncated };
}

function listed(r: NetworkRequest, start: number): NetworkRequestOut {
  const out: NetworkRequestOut = {
    offsetMs: Math.round(r.timestamp - start),
    method: r.method,
    url: r.name,
    status: r.status,
    durationMs: durationMs(r),
    requestSize: r.requestSize ?? null,
    responseSize: r.responseSize ?? null,
  };
  if (r.requestHeaders) out.requestHeaders = r.requestHeaders;
  if (r.responseHeaders) out.responseHeaders = r.responseHeaders;
  if (r.requestBody !== undefined) out.requestBody = r.requestBody;
  if (r.responseBody !== undefined) out.responseBody = r.responseBody;
  return out;
}
