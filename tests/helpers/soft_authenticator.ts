// A software passkey authenticator for API tests: an ES256 key, "none" attestation and signed
// assertions in the JSON shapes @simplewebauthn/browser sends, so verify endpoints run for real.
import { createHash } from "node:crypto";

const b64url = (bytes: Uint8Array) => bytes.toBase64({ alphabet: "base64url", omitPadding: true });
const utf8 = (text: string) => new TextEncoder().encode(text);
const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest());

export interface SoftAuthenticatorOptions {
  /** RP ID the authenticator signs for (APP_URL's hostname). */
  rpId: string;
  /** Origin the "browser" reports in clientDataJSON. */
  origin: string;
  /** The user handle stored with the credential (registration's user.id). */
  userHandle?: string;
}

export class SoftAuthenticator {
  readonly credentialId = b64url(crypto.getRandomValues(new Uint8Array(32)));
  counter = 0;
  private constructor(private keys: CryptoKeyPair, readonly options: SoftAuthenticatorOptions) {}

  static async create(options: SoftAuthenticatorOptions): Promise<SoftAuthenticator> {
    const keys = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ]);
    return new SoftAuthenticator(keys, options);
  }

  /** A RegistrationResponseJSON for the options' challenge (user verified unless told). */
  async register(challenge: string, { userVerified = true, type = "webauthn.create" } = {}) {
    const jwk = await crypto.subtle.exportKey("jwk", this.keys.publicKey);
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Uint8Array.fromBase64(jwk.x!, { alphabet: "base64url" })],
        [-3, Uint8Array.fromBase64(jwk.y!, { alphabet: "base64url" })],
      ]),
    );
    const id = Uint8Array.fromBase64(this.credentialId, { alphabet: "base64url" });
    const attested = concat(
      new Uint8Array(16),
      new Uint8Array([id.length >> 8, id.length & 255]),
      id,
      cose,
    );
    const authData = concat(this.authDataHead(0x40, userVerified), attested);
    const attestationObject = cbor(
      new Map<string, unknown>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData(type, challenge)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** An AuthenticationResponseJSON signing the challenge; bumps the signature counter. */
  async authenticate(challenge: string, { userVerified = true, userHandle = true } = {}) {
    this.counter++;
    const authData = this.authDataHead(0, userVerified);
    const clientDataJSON = this.clientData("webauthn.get", challenge);
    const signed = concat(authData, sha256(clientDataJSON));
    const raw = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, this.keys.privateKey, signed),
    );
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(derSignature(raw)),
        ...(userHandle && this.options.userHandle
          ? { userHandle: b64url(utf8(this.options.userHandle)) }
          : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private authDataHead(extraFlags: number, userVerified: boolean): Uint8Array {
    const flags = 0x01 | (userVerified ? 0x04 : 0) | extraFlags;
    const count = new Uint8Array(4);
    new DataView(count.buffer).setUint32(0, this.counter);
    return concat(sha256(utf8(this.options.rpId)), new Uint8Array([flags]), count);
  }

  private clientData(type: string, challenge: string): Uint8Array {
    return utf8(
      JSON.stringify({ type, challenge, origin: this.options.origin, crossOrigin: false }),
    );
  }
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) (out.set(part, at), at += part.length);
  return out;
}

/** The minimal CBOR the attestation needs: small ints, text, bytes and maps. */
function cbor(value: unknown): Uint8Array {
  const head = (major: number, n: number) =>
    n < 24
      ? new Uint8Array([major << 5 | n])
      : n < 256
      ? new Uint8Array([major << 5 | 24, n])
      : new Uint8Array([major << 5 | 25, n >> 8, n & 255]);
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return concat(head(3, utf8(value).length), utf8(value));
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  if (value instanceof Map) {
    return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
  }
  throw new Error(`cbor: unsupported ${typeof value}`);
}

/** WebCrypto's r‖s ECDSA signature as the DER sequence WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    const trimmed = bytes.slice(i);
    const body = trimmed[0] & 0x80 ? concat(new Uint8Array([0]), trimmed) : trimmed;
    return concat(new Uint8Array([0x02, body.length]), body);
  };
  const seq = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, seq.length]), seq);
}
