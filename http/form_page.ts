// A dashboard page of forms (post/redirect/get): GET renders what `load` reads, never cached;
// POST runs the action the form names (http/forms.ts) and answers 303, or renders the page
// again with the refusal and its status.
import type { Handlers } from "$fresh/server.ts";
import type { AppDeps } from "../core/deps.ts";
import { type Actions, type FormFailure, runAction } from "./forms.ts";

export function formPage<Data extends { failure?: FormFailure }, State extends { deps: AppDeps }>(
  load: (state: State) => Promise<Data>,
  actions: (state: State) => Actions,
): Handlers<Data, State> {
  return {
    async GET(_req, ctx) {
      return ctx.render(await load(ctx.state));
    },
    async POST(req, ctx) {
      const rerender = async (failure: FormFailure, status: number) =>
        ctx.render({ ...await load(ctx.state), failure }, { status });
      const bodyTimeoutMs = ctx.state.deps.config.http.bodyTimeoutMs;
      return await runAction(req, ctx.url, actions(ctx.state), rerender, bodyTimeoutMs);
    },
  };
}
