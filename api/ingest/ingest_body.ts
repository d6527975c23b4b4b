// The ingest body: read within the body timeout and caps like any JSON body (http/body.ts, which
// inflates it and holds the key to its share of the body budget), then decoded, validated and
// prepared for the statement, in a decode worker when it is large (decode_pool.ts, in the key's
// turn) or on the main thread when it is small (a worker's round trip would cost more than the
// work). The handler gets `c.var.ingest`, the prepared row.
import type { Context, MiddlewareHandler } from "hono";
import { type PreparedIngest, prepareIngest } from "@/core/ingest/prepare.ts";
import { ingestBodySchema } from "@/core/ingest/schema.ts";
import { largeDecodes, readWire } from "@/http/body.ts";
import { bodyBudget } from "@/http/body_budget.ts";
import type { ApiEnv } from "@/api/env.ts";
import { documentedBody } from "@/api/validate.ts";
import { decodeIngestWire } from "./decode.ts";
import type { DecodePool } from "./decode_pool.ts";

/** Bodies from this size on go to a worker: the SDK's usual batch (a few KiB) stays here. */
export const OFFLOAD_MIN_WIRE_BYTES = 32 * 1024;

type KeyedEnv = ApiEnv & { Variables: { publicKey: string } };

export function ingestBody(pool: DecodePool | null): MiddlewareHandler<KeyedEnv> {
  const middleware: MiddlewareHandler<KeyedEnv> = async (c, next) => {
    c.set("ingest", await preparedBody(c, pool));
    // Only the prepared row lives on while the request waits for its turn and the database: the
    // body's bytes are not held by this frame (a wait of 32 requests kept them past collections).
    await next();
  };
  return documentedBody(middleware, ingestBodySchema);
}

async function preparedBody(
  c: Context<KeyedEnv>,
  pool: DecodePool | null,
): Promise<PreparedIngest> {
  const key = c.var.publicKey;
  // A gzip body kept as it came too: its events' part may be stored so (./sent_parts.ts).
  const wire = await readWire(c.req.raw, c.var.bodyTimeoutMs, undefined, bodyBudget, key, true);
  c.set("wireBytes", wire.wireBytes);
  const { bytes, gzip } = wire;
  // A project that records no requests keeps none (api/public_key.ts read which it is).
  const job = { bytes, gzip, dropNetwork: !c.var.recordsNetwork };
  const here = () => {
    const { body, sent } = decodeIngestWire(job);
    return prepareIngest(body, sent);
  };
  try {
    return pool && wire.wireBytes >= OFFLOAD_MIN_WIRE_BYTES
      ? await pool.decode(job, key)
      // Without workers, large decodes on this thread still take turns (http/body.ts).
      : wire.large
      ? await largeDecodes.run(here)
      : here();
  } finally {
    wire.release();
  }
}
