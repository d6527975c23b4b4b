// Sign-out from the header's form: clears the session cookie and goes to the sign-in page.
import type { Handlers } from "$fresh/server.ts";
import { endSession } from "../core/sessions.ts";
import { fromOwnOrigin, seeOther } from "../utils/forms.ts";
import type { State } from "./_middleware.ts";

export const handler: Handlers<unknown, State> = {
  POST(req, ctx) {
    if (!fromOwnOrigin(req, ctx.state.deps.config.appUrl)) {
      return new Response("cross-origin request refused", { status: 403 });
    }
    return seeOther("/signin", { "set-cookie": endSession(ctx.state.deps) });
  },
};
