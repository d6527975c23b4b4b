// The outcome of the last form post on a page: a fixed notice after its 303 (`?done=code`), or
// the error that stopped it.
import type { FormFailure } from "@/http/forms.ts";

interface Props {
  url: URL;
  /** Notice text per `done` code; unknown codes show nothing. */
  notices: Record<string, string>;
  failure?: FormFailure | null;
}

export function Notice({ url, notices, failure }: Props) {
  if (failure) return <p class="notice notice-error" role="alert">{failure.message}</p>;
  const done = url.searchParams.get("done");
  if (!done || !Object.hasOwn(notices, done)) return null;
  return <p class="notice" role="status">{notices[done]}</p>;
}
