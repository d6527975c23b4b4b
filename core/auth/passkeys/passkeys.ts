// The signed-in user's passkeys (docs/decisions.md "Account"): list, read, rename and delete,
// each scoped to the viewer, so another user's passkey answers 404.
import type { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  deletePasskey as deletePasskeyRow,
  listPasskeys as listPasskeyRows,
  renamePasskey as renamePasskeyRow,
} from "@/db/queries/auth/passkeys.ts";
import { log } from "@/log.ts";
import { notFound } from "@/core/errors.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { passkey } from "@/core/account/schema.ts";

type PasskeyDeps = Pick<AppDeps, "db">;

export type Passkey = z.output<typeof passkey>;

export function toPasskey(row: {
  credential_id: string;
  name: string;
  credential_device_type: string;
  created_at: Date | string;
}): Passkey {
  return {
    credentialID: row.credential_id,
    name: row.name,
    credentialDeviceType: row.credential_device_type,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export async function listPasskeys(deps: PasskeyDeps, viewer: Viewer): Promise<Passkey[]> {
  return (await listPasskeyRows(deps.db.kysely, viewer.userId)).map(toPasskey);
}

export async function getPasskey(
  deps: PasskeyDeps,
  viewer: Viewer,
  credentialId: string,
): Promise<Passkey> {
  const all = await listPasskeys(deps, viewer);
  return all.find((p) => p.credentialID === credentialId) ?? missing();
}

/** `name` arrives trimmed and 1..50 characters long (validated at the edge). */
export async function renamePasskey(
  deps: PasskeyDeps,
  viewer: Viewer,
  credentialId: string,
  name: string,
): Promise<Passkey> {
  const row = await renamePasskeyRow(deps.db.kysely, viewer.userId, credentialId, name);
  return row ? toPasskey(row) : missing();
}

export async function deletePasskey(
  deps: PasskeyDeps,
  viewer: Viewer,
  credentialId: string,
): Promise<void> {
  if (!await deletePasskeyRow(deps.db.kysely, viewer.userId, credentialId)) missing();
  log.info("auth:passkey:delete:ok", { userId: viewer.userId });
}

function missing(): never {
  throw notFound("passkey");
}
