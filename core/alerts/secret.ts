// A webhook's signing secret (docs/decisions.md "Alerts"): shown once, kept sealed with AES-GCM
// under a key derived from AUTH_SECRET (HKDF-SHA-256), since signing needs the secret itself; and
// the signature a delivery carries, HMAC-SHA-256 of `timestamp.body`.
import { decodeBase64Url, encodeBase64Url } from "./base64.ts";

const encoder = new TextEncoder();

/** A new secret: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `whsec_${encodeBase64Url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

async function sealingKey(authSecret: string): Promise<CryptoKey> {
  const base = await crypto.subtle.importKey("raw", encoder.encode(authSecret), "HKDF", false, [
    "deriveKey",
  ]);
  return await crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(0),
      info: encoder.encode("playhead alert webhook secrets"),
    },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** `v1.<iv>.<ciphertext>`, base64url. */
export async function sealSecret(authSecret: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    await sealingKey(authSecret),
    encoder.encode(secret),
  );
  return `v1.${encodeBase64Url(iv)}.${encodeBase64Url(new Uint8Array(sealed))}`;
}

export async function openSecret(authSecret: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("unknown sealed secret format");
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: decodeBase64Url(iv) },
    await sealingKey(authSecret),
    decodeBase64Url(data),
  );
  return new TextDecoder().decode(plain);
}

/** `sha256=<hex HMAC-SHA-256(secret, timestamp + "." + body)>`. */
export async function signDelivery(secret: string, timestamp: string, body: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${timestamp}.${body}`));
  return `sha256=${
    Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}
