// A test-only page for the passkey browser test: who is signed in, and the passkey islands the
// sign-in and settings pages reuse (register when signed in, sign in when signed out).
import type { PageProps } from "$fresh/server.ts";
import PasskeyButton from "@/islands/PasskeyButton.tsx";
import PasskeySignIn from "@/islands/PasskeySignIn.tsx";
import type { State } from "@/routes/_middleware.ts";

export default function PasskeyPage({ state }: PageProps<unknown, State>) {
  const viewer = state.viewer;
  return (
    <main>
      <p id="who">{viewer ? viewer.email : "signed out"}</p>
      {viewer ? <PasskeyButton label="Add a passkey" /> : <PasskeySignIn next="/passkeys" />}
    </main>
  );
}
