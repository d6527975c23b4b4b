// A batch sealed at rest (docs/decisions.md "Recordings in an object store"): its gzip bytes
// encrypted with AES-256-GCM (WebCrypto) under its session's data key, with its place (project,
// session, batch id) as additional data, so bytes moved to another place fail to open.
// Layout: version (1 byte) · IV (12 random bytes) · ciphertext · tag (16 bytes).

/** The format's version, its first byte. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What sealing adds to a batch's length. */
export const SEAL_OVERHEAD = 1 + IV_BYTES + TAG_BYTES;

/** Where a batch belongs: what its sealed bytes are bound to. */
export interface BatchPlace {
  projectId: string;
  sessionExternalId: string;
  batchId: number;
}

/** Bytes that are not a batch sealed for this place under this key (moved, altered, wrong key). */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealError";
  }
}

/** The additional data: the place as a JSON array, so no two places give the same bytes. */
export function placeBytes(place: BatchPlace): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(
    JSON.stringify([
      "playhead-batch",
      VERSION,
      place.projectId,
      place.sessionExternalId,
      String(place.batchId),
    ]),
  );
}

export async function sealBatch(
  key: CryptoKey,
  place: BatchPlace,
  bytes: Uint8Array,
): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: placeBytes(place) },
    key,
    bytes as Uint8Array<ArrayBuffer>,
  );
  const out = new Uint8Array(1 + IV_BYTES + sealed.byteLength);
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(new Uint8Array(sealed), 1 + IV_BYTES);
  return out;
}

/** The batch's gzip bytes; throws SealError unless `sealed` is this place's, under this key. */
export async function openBatch(
  key: CryptoKey,
  place: BatchPlace,
  sealed: Uint8Array,
): Promise<Uint8Array> {
  if (sealed.length < SEAL_OVERHEAD || sealed[0] !== VERSION) {
    throw new SealError(`not a sealed batch (${sealed.length} bytes, version ${sealed[0]})`);
  }
  try {
    return new Uint8Array(
      await crypto.subtle.decrypt(
        {
          name: "AES-GCM",
          iv: sealed.slice(1, 1 + IV_BYTES),
          additionalData: placeBytes(place),
        },
        key,
        sealed.subarray(1 + IV_BYTES) as Uint8Array<ArrayBuffer>,
      ),
    );
  } catch {
    // WebCrypto says only "decryption failed": a wrong key, place or byte all look alike.
    throw new SealError("the batch does not open for its place under its session's key");
  }
}
