// /signin: the configured sign-in methods (OAuth providers, an emailed code, passkeys); a signed-in
// visitor goes on to the page asked for (`next`) or Sessions.
import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { SignInError } from "@/components/auth/SignInError.tsx";
import { type SignInMethods, signInMethods } from "@/core/auth/methods.ts";
import { OTP_COOLDOWN_SECONDS } from "@/core/auth/otp_policy.ts";
import EmailCodeSignIn from "@/islands/EmailCodeSignIn.tsx";
import PasskeySignIn from "@/islands/PasskeySignIn.tsx";
import { seeOther } from "@/http/forms.ts";
import { landingPath } from "@/http/next_path.ts";
import type { State } from "./_middleware.ts";

interface Data {
  next: string;
  methods: SignInMethods;
}

export default function SignIn({ data, url }: PageProps<Data, State>) {
  const { next, methods } = data;
  return (
    <>
      <Head>
        <title>Sign in · Playhead</title>
      </Head>
      <h1>Sign in</h1>
      <SignInError url={url} />
      <section class="card stack" aria-label="Sign-in methods">
        {methods.email && <EmailCodeSignIn next={next} cooldownSeconds={OTP_COOLDOWN_SECONDS} />}
        {methods.oauth.length > 0 && (
          <ul class="plain-list stack" aria-label="Other ways to sign in">
            {methods.oauth.map((provider) => (
              <li key={provider.id}>
                <a
                  class="button"
                  href={`/api/auth/signin/${provider.id}?callbackUrl=${encodeURIComponent(next)}`}
                >
                  Continue with {provider.name}
                </a>
              </li>
            ))}
          </ul>
        )}
        {methods.passkey && <PasskeySignIn next={next} />}
      </section>
    </>
  );
}

export const handler: Handlers<Data, State> = {
  GET(_req, ctx) {
    const next = landingPath(ctx.url.searchParams.get("next"));
    if (ctx.state.viewer) return seeOther(next);
    return ctx.render({ next, methods: signInMethods(ctx.state.deps.config) });
  },
};
