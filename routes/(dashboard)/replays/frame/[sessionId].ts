// /replays/frame/[sessionId]: a replay page's frame (the first, or at `?t=` the moment's) when it
// is too large to carry in the page (frame_job.ts `INLINE_FRAME_CHARS`): the cached gzipped
// document the frame worker wrote, under the page's access rules, sandboxed by its own CSP even
// when opened on its own (an opaque origin: no script, no cookie, no storage of the dashboard).
import type { Handlers } from "$fresh/server.ts";
import { openingFrame } from "@/core/sessions/opening_frame.ts";
import { frameDocumentHeaders } from "@/http/replay_headers.ts";
import { orNull } from "@/http/found.ts";
import { acceptedEncoding } from "@/fresh/encoding.ts";
import { readReplayMoment } from "@/page_state/replay.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";
import { gunzip } from "node:zlib";
import { promisify } from "node:util";

const inflate = promisify(gunzip);

export const handler: Handlers<unknown, DashboardState> = {
  async GET(req, ctx) {
    const { deps, viewer } = ctx.state;
    if (!viewer.activeOrganizationId) return ctx.renderNotFound();
    const id = ctx.params.sessionId;
    const startAt = readReplayMoment(ctx.url);
    const frame = await orNull(openingFrame(deps, viewer, id, startAt));
    if (!frame?.document) return ctx.renderNotFound();
    // The stored document is gzip: sent as it is when the request accepts gzip, else inflated.
    const gzip = acceptedEncoding(req.headers.get("accept-encoding"), ["gzip"]) === "gzip";
    const body = gzip ? frame.document : await inflate(frame.document);
    return new Response(body as Uint8Array<ArrayBuffer>, {
      headers: frameDocumentHeaders(gzip),
    });
  },
};
