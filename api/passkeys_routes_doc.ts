// Route docs of passkeys: the WebAuthn ceremonies (api/passkey_auth.ts) and the signed-in user's
// own passkeys (api/user_passkeys.ts).
import { z } from "zod";
import { signedIn } from "./auth_schema.ts";
import { describeRoute } from "./openapi_route.ts";
import { authenticateVerifyBody, registerVerifyBody, renameBody } from "./passkeys_schema.ts";
import { passkey } from "./user_schema.ts";

const CHALLENGE = { "Set-Cookie": "the ceremony's challenge cookie" };
const ID = { credentialId: "base64url credential id of one of the viewer's passkeys" };

/** What @simplewebauthn/server generates; passed to the browser as is. */
const creationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.string(), alg: z.number() })),
}).meta({ description: "PublicKeyCredentialCreationOptionsJSON" });
const requestOptions = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
}).meta({ description: "PublicKeyCredentialRequestOptionsJSON" });

export const passkeyRoutes = [
  describeRoute({
    method: "post",
    path: "/api/auth/passkeys/register/options",
    summary: "Begin registering a passkey for the signed-in user",
    tag: "passkeys",
    auth: "cookie",
    noStore: true,
    responses: {
      200: { description: "creation options", body: creationOptions, headers: CHALLENGE },
    },
  }),
  describeRoute({
    method: "post",
    path: "/api/auth/passkeys/register/verify",
    summary: "Finish registering: store the passkey",
    tag: "passkeys",
    auth: "cookie",
    body: registerVerifyBody,
    responses: { 201: { description: "the new passkey", body: passkey } },
    errors: [409],
  }),
  describeRoute({
    method: "post",
    path: "/api/auth/passkeys/authenticate/options",
    summary: "Begin signing in with a passkey",
    tag: "passkeys",
    auth: "none",
    noStore: true,
    responses: {
      200: { description: "request options", body: requestOptions, headers: CHALLENGE },
    },
    errors: [403],
  }),
  describeRoute({
    method: "post",
    path: "/api/auth/passkeys/authenticate/verify",
    summary: "Finish signing in with a passkey",
    tag: "passkeys",
    auth: "none",
    body: authenticateVerifyBody,
    responses: {
      200: {
        description: "signed in",
        body: signedIn,
        headers: { "Set-Cookie": "the session cookie" },
      },
    },
    errors: [401, 403],
  }),
  describeRoute({
    method: "get",
    path: "/api/user/passkeys",
    summary: "The signed-in user's passkeys",
    tag: "passkeys",
    auth: "cookie",
    noStore: true,
    responses: { 200: { description: "passkeys", body: z.array(passkey) } },
  }),
  describeRoute({
    method: "get",
    path: "/api/user/passkeys/{credentialId}",
    summary: "One of the signed-in user's passkeys",
    tag: "passkeys",
    auth: "cookie",
    params: ID,
    noStore: true,
    responses: { 200: { description: "the passkey", body: passkey } },
  }),
  describeRoute({
    method: "patch",
    path: "/api/user/passkeys/{credentialId}",
    summary: "Rename a passkey",
    tag: "passkeys",
    auth: "cookie",
    params: ID,
    body: renameBody,
    responses: { 200: { description: "the passkey", body: passkey } },
  }),
  describeRoute({
    method: "delete",
    path: "/api/user/passkeys/{credentialId}",
    summary: "Delete a passkey",
    tag: "passkeys",
    auth: "cookie",
    params: ID,
    responses: { 204: { description: "deleted" } },
  }),
];
