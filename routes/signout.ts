// Sign-out from the header's form: revokes the session token, clears the cookie and goes to the
// sign-in page.
import type { Handlers } from "$fresh/server.ts";
import { signOut } from "@/http/session.ts";
import { seeOther } from "@/http/forms.ts";
import { fromOwnOrigin } from "@/http/same_origin.ts";
import type { State } from "./_middleware.ts";

export const handler: Handlers<unknown, State> = {
  async POST(req, ctx) {
    if (!fromOwnOrigin(req, ctx.state.deps.config.appUrl)) {
      return new Response("cross-origin request refused", { status: 403 });
    }
    const cookie = await signOut(ctx.state.deps, req.headers.get("cookie"));
    return seeOther("/signin", { "set-cookie": cookie });
  },
};
