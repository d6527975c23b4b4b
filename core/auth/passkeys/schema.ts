// Wire schemas of the passkey endpoints: the browser's JSON credentials (as @simplewebauthn/browser
// sends them), checked for shape and size here; their cryptography is checked in core/.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";

const base64url = (max: number) =>
  z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url");

/** A credential id: WebAuthn caps them at 1023 bytes, 1364 base64url characters. */
export const credentialId = base64url(1400);

export const passkeyName = z.string().trim().min(1).max(50);

const credentialFields = {
  id: credentialId,
  rawId: credentialId,
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
};

const registrationResponse = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: base64url(8192),
    attestationObject: base64url(65536),
    transports: z.array(z.string().max(32)).max(16).optional(),
  }),
});

const authenticationResponse = z.looseObject({
  ...credentialFields,
  response: z.looseObject({
    clientDataJSON: base64url(8192),
    authenticatorData: base64url(8192),
    signature: base64url(8192),
    userHandle: base64url(1024).optional(),
  }),
});

export const registerVerifyBody = z.object({
  response: registrationResponse.transform((r) => r as unknown as RegistrationResponseJSON),
  name: passkeyName.optional(),
});

export const authenticateVerifyBody = z.object({
  response: authenticationResponse.transform((r) => r as unknown as AuthenticationResponseJSON),
});

export const renameBody = z.object({ name: passkeyName });
