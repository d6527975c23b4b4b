// /settings/profile: the signed-in account's name, avatar, linked sign-in accounts and passkeys,
// each changed by a form post.
import { Head } from "$fresh/runtime.ts";
import type { FreshContext, PageProps } from "$fresh/server.ts";
import { z } from "zod";
import PasskeyButton from "@/islands/PasskeyButton.tsx";
import { ConfirmForm } from "@/components/ui/ConfirmForm.tsx";
import { LinkedAccounts } from "@/components/account/LinkedAccounts.tsx";
import { Notice } from "@/components/ui/Notice.tsx";
import { PasskeyList } from "@/components/account/PasskeyList.tsx";
import { SignInError } from "@/components/auth/SignInError.tsx";
import { unlinkAccount } from "@/core/account/account_unlink.ts";
import { deletePasskey, renamePasskey } from "@/core/auth/passkeys/passkeys.ts";
import { endSession } from "@/http/session.ts";
import { signInMethods } from "@/core/auth/methods.ts";
import {
  DELETE_ACCOUNT_PHRASE,
  deleteAccount,
  getProfile,
  regenerateAvatar,
  renameProfile,
  type UserProfile,
} from "@/core/account/profile.ts";
import { renameUserBody } from "@/core/account/schema.ts";
import { passkeyName } from "@/core/auth/passkeys/schema.ts";
import { formPage } from "@/http/form_page.ts";
import { type Actions, type FormFailure, parseForm, seeOther } from "@/http/forms.ts";
import type { DashboardState } from "@/routes/(dashboard)/_middleware.ts";

interface Data {
  profile: UserProfile;
  /** Configured OAuth providers, to list linked ones and offer linking the others. */
  providers: Array<{ id: string; name: string }>;
  failure?: FormFailure;
}

const NOTICES: Record<string, string> = {
  renamed: "Your name is saved.",
  avatar: "You have a new avatar.",
  unlinked: "Account unlinked.",
  "passkey-renamed": "Passkey renamed.",
  "passkey-deleted": "Passkey deleted.",
};

export default function Profile({ data, url }: PageProps<Data, DashboardState>) {
  const { profile, providers, failure } = data;
  return (
    <>
      <Head>
        <title>Profile · Playhead</title>
      </Head>
      <h1>Profile</h1>
      <Notice url={url} notices={NOTICES} failure={failure} />
      <SignInError url={url} />

      <section class="card stack" aria-labelledby="name-heading">
        <h2 id="name-heading">Name</h2>
        <p class="muted">Signed in as {profile.email}</p>
        <form method="post" class="row">
          <label for="profile-name" class="visually-hidden">Name</label>
          <input id="profile-name" name="name" value={profile.name ?? ""} required maxLength={80} />
          <button type="submit" name="intent" value="rename">Save name</button>
        </form>
      </section>

      <section class="card stack" aria-labelledby="avatar-heading">
        <h2 id="avatar-heading">Avatar</h2>
        <div class="row">
          <img class="avatar" src={profile.image} alt="Your avatar" width={64} height={64} />
          <form method="post">
            <button type="submit" name="intent" value="avatar">Generate a new avatar</button>
          </form>
        </div>
      </section>

      <section class="card stack" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Linked accounts</h2>
        <LinkedAccounts providers={providers} linked={profile.accounts.map((a) => a.provider)} />
      </section>

      <section class="card stack" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <PasskeyList passkeys={profile.passkeys} />
        <PasskeyButton reload />
      </section>

      <section class="card stack danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete account</h2>
        <ConfirmForm
          id="delete-account"
          intent="delete-account"
          phrase={DELETE_ACCOUNT_PHRASE}
          action="Delete my account"
        >
          <p>
            Your memberships end and organizations you alone belong to are deleted with their
            projects and recordings. Where you are the last owner, ownership passes on.
          </p>
        </ConfirmForm>
      </section>
    </>
  );
}

const providerSchema = z.object({ provider: z.string().min(1) });
const passkeySchema = z.object({ credentialId: z.string().min(1) });
const passkeyNameSchema = passkeySchema.extend({ name: passkeyName });

async function load({ state }: FreshContext<DashboardState>): Promise<Data> {
  return {
    profile: await getProfile(state.deps, state.viewer),
    providers: signInMethods(state.deps.config).oauth,
  };
}

function actions({ state: { deps, viewer } }: FreshContext<DashboardState>): Actions {
  return {
    rename: async (form) => {
      await renameProfile(deps, viewer, parseForm(renameUserBody, form));
      return "renamed";
    },
    avatar: async () => {
      await regenerateAvatar(deps, viewer);
      return "avatar";
    },
    unlink: async (form) => {
      await unlinkAccount(deps, viewer, parseForm(providerSchema, form));
      return "unlinked";
    },
    "rename-passkey": async (form) => {
      const { credentialId, name } = parseForm(passkeyNameSchema, form);
      await renamePasskey(deps, viewer, credentialId, name);
      return "passkey-renamed";
    },
    "delete-passkey": async (form) => {
      await deletePasskey(deps, viewer, parseForm(passkeySchema, form).credentialId);
      return "passkey-deleted";
    },
    "delete-account": async (form) => {
      await deleteAccount(deps, viewer, { confirmation: String(form.get("confirmation")) });
      return seeOther("/signin", { "set-cookie": endSession(deps) });
    },
  };
}

export const handler = formPage(load, actions);
