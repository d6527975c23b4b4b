// A session's recorded requests for GET /api/sessions/:id/network: its batches decoded in replay
// order and the `rrweb/network@1` events' requests (recording/network.ts, bounded by ingest)
// listed with their offset from the session's start. The list carries no bodies (up to 64 KiB
// each, thousands per session: one answer once weighed 360 MB); one request's bodies are read
// on demand by its index. A list stops decoding at NETWORK_LIST_LIMITS, with `truncated`.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import {
  isNetworkEvent,
  type NetworkRequest,
  networkRequests,
  networkRow,
} from "@/recording/network.ts";
import { decodeBatch, type RecordedEvent } from "@/recording/decode.ts";
import { findSession, type SessionRow } from "@/db/queries/sessions/detail.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { sessionBatches } from "./detail.ts";
import type { NetworkRequestDetail, NetworkRequestOut, SessionNetwork } from "./schema.ts";

/** What one list answer holds at most: requests, and bytes of their JSON. */
export const NETWORK_LIST_LIMITS = { requests: 5000, bytes: 16 * 1024 * 1024 };

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store">>;

export async function sessionNetworkList(
  deps: Deps,
  viewer: Viewer,
  id: string,
  limits = NETWORK_LIST_LIMITS,
): Promise<SessionNetwork> {
  const session = await visibleSession(deps, viewer, id);
  const start = session.started_at.getTime();
  const data: NetworkRequestOut[] = [];
  let bytes = 0;
  let truncated = false;
  for await (const { index, request } of recordedRequests(deps, session)) {
    const item = listed(request, start, index);
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (data.length === limits.requests || bytes + size > limits.bytes) {
      truncated = true;
      break; // the batches after it are never read nor decoded
    }
    bytes += size;
    data.push(item);
  }
  data.sort((a, b) => a.offsetMs - b.offsetMs || a.index - b.index);
  return { data, truncated };
}

/** One listed request with its bodies, by its `index`; null when the session has no such one. */
export async function sessionNetworkRequest(
  deps: Deps,
  viewer: Viewer,
  id: string,
  index: number,
): Promise<NetworkRequestDetail> {
  const session = await visibleSession(deps, viewer, id);
  for await (const found of recordedRequests(deps, session)) {
    if (found.index !== index) continue;
    const { request } = found;
    return {
      ...listed(request, session.started_at.getTime(), index),
      ...(request.requestBody !== undefined && { requestBody: request.requestBody }),
      ...(request.responseBody !== undefined && { responseBody: request.responseBody }),
    };
  }
  throw notFound("request");
}

async function visibleSession(deps: Deps, viewer: Viewer, id: string): Promise<SessionRow> {
  const session = await findSession(deps.db.kysely, activeOrganization(viewer), id);
  if (!session) throw notFound("session");
  return session;
}

/** Every well-formed recorded request in replay order, numbered from 0 in that order. */
async function* recordedRequests(deps: Deps, session: SessionRow) {
  let index = 0;
  for await (const batch of await sessionBatches(deps, session)) {
    let events: RecordedEvent[];
    try {
      events = batch.data ? await decodeBatch(batch.data) : [];
    } catch {
      continue; // a corrupt batch: the replay shows its notice
    }
    for (const event of events) {
      if (!isNetworkEvent(event)) continue;
      for (const request of networkRequests(event)) yield { index: index++, request };
    }
  }
}

function listed(r: NetworkRequest, start: number, index: number): NetworkRequestOut {
  const { requestHeaders, responseHeaders, ...row } = networkRow(r, start);
  const out: NetworkRequestOut = {
    index,
    ...row,
    hasRequestBody: r.requestBody !== undefined,
    hasResponseBody: r.responseBody !== undefined,
  };
  if (requestHeaders) out.requestHeaders = requestHeaders;
  if (responseHeaders) out.responseHeaders = responseHeaders;
  return out;
}
