// The ingest body: read within the body timeout and caps like any JSON body
// (http/body.ts), then decoded, validated and prepared for the statement, in a decode worker when
// it is large (decode_pool.ts) or on the main thread when it is small (a worker's round trip
// would cost more than the work). The handler gets `c.var.ingest`, the prepared row.
import type { MiddlewareHandler } from "hono";
import { prepareIngest } from "@/core/ingest/prepare.ts";
import { ingestBodySchema } from "@/core/ingest/schema.ts";
import { largeDecodes, readWire } from "@/http/body.ts";
import type { ApiEnv } from "@/api/env.ts";
import { documentedBody } from "@/api/validate.ts";
import { decodeIngestWire } from "./decode.ts";
import type { DecodePool } from "./decode_pool.ts";

/** Bodies from this size on go to a worker: the SDK's usual batch (a few KiB) stays here. */
export const OFFLOAD_MIN_WIRE_BYTES = 32 * 1024;

export function ingestBody(pool: DecodePool | null): MiddlewareHandler<ApiEnv> {
  const middleware: MiddlewareHandler<ApiEnv> = async (c, next) => {
    const wire = await readWire(c.req.raw, c.var.bodyTimeoutMs);
    c.set("wireBytes", wire.bytes.byteLength);
    const { bytes, gzip } = wire;
    // A project that records no requests keeps none (api/public_key.ts read which it is).
    const job = { bytes, gzip, dropNetwork: !c.var.recordsNetwork };
    const here = () => prepareIngest(decodeIngestWire(job));
    try {
      c.set(
        "ingest",
        pool && bytes.byteLength >= OFFLOAD_MIN_WIRE_BYTES
          ? await pool.decode(job, bytes.byteLength)
          // Without workers, large decodes on this thread still take turns (http/body.ts).
          : wire.large
          ? await largeDecodes.run(here)
          : here(),
      );
    } finally {
      wire.release();
    }
    await next();
  };
  return documentedBody(middleware, ingestBodySchema);
}
