// The per-byte work of a read from the store, timed in this process on this host: opening a sealed
// batch (core/storage/seal.ts, WebCrypto AES-256-GCM) against what the events answer does to every
// batch in clear too (base64, then UTF-8). What bounds sealed / in clear is their ratio.
import { openBatch, sealBatch } from "@/core/storage/seal.ts";

const BATCH_BYTES = 1 << 20;
const ROUNDS = 128;

/** MB/s of each step over `ROUNDS` 1 MiB batches, the best of three passes. */
export async function perByteRates(): Promise<{ open: number; base64: number }> {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
    "decrypt",
  ]);
  const batch = new Uint8Array(BATCH_BYTES);
  for (let at = 0; at < batch.length; at += 65_536) {
    crypto.getRandomValues(batch.subarray(at, at + 65_536));
  }
  const place = { projectId: "bench", sessionExternalId: "bench", batchId: 1 };
  const sealed = await sealBatch(key, place, batch);
  const encoder = new TextEncoder();
  const rate = async (step: () => unknown) => {
    let best = Infinity;
    for (let pass = 0; pass < 3; pass++) {
      const started = performance.now();
      for (let i = 0; i < ROUNDS; i++) await step();
      best = Math.min(best, performance.now() - started);
    }
    return ROUNDS * BATCH_BYTES / 1e6 / (best / 1000);
  };
  return {
    open: await rate(() => openBatch(key, place, sealed)),
    base64: await rate(() => encoder.encode(batch.toBase64())),
  };
}
