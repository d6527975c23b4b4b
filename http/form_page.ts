// A dashboard page of forms (post/redirect/get): GET renders what `load` reads, never cached;
// POST runs the action the form names (http/forms.ts) and answers 303, or renders the page
// again with the refusal and its status. `load` answers null for a resource that is not there
// (the 404 page) and throws a validation error for a bad query (a 400).
import type { FreshContext, Handlers } from "$fresh/server.ts";
import type { AppDeps } from "@/core/deps.ts";
import { badRequest } from "./found.ts";
import { type Actions, type FormFailure, runAction } from "./forms.ts";

export function formPage<Data extends { failure?: FormFailure }, State extends { deps: AppDeps }>(
  load: (ctx: FreshContext<State>) => Promise<Data | null>,
  actions: (ctx: FreshContext<State>) => Actions,
): Handlers<Data, State> {
  async function render(ctx: FreshContext<State, Data>, failure?: FormFailure, status?: number) {
    const data = await load(ctx).catch(badRequest);
    if (data instanceof Response) return data;
    if (data === null) return ctx.renderNotFound();
    return ctx.render({ ...data, failure }, { status });
  }
  return {
    GET: (_req, ctx) => render(ctx),
    async POST(req, ctx) {
      const bodyTimeoutMs = ctx.state.deps.config.http.bodyTimeoutMs;
      const rerender = (failure: FormFailure, status: number) => render(ctx, failure, status);
      return await runAction(req, ctx.url, actions(ctx), rerender, bodyTimeoutMs);
    },
  };
}
