// A project's network settings (docs/decisions.md "Network capture"): a form for ADMIN and OWNER,
// the same fields read-only for a VIEWER. Header names and path globs one per line.
import type { NetworkSettingsView } from "@/core/projects/schema.ts";
import { headerKeepable, MAX_KEPT_HEADERS } from "@/core/projects/network_limits.ts";
import { MAX_URL_RULES } from "@/core/projects/recording_limits.ts";

interface Props {
  network: NetworkSettingsView;
  editable: boolean;
}

export function NetworkSettingsForm({ network: n, editable }: Props) {
  const ignored = n.headers.filter((name) => !headerKeepable(name));
  return (
    <form method="post" class="stack">
      <fieldset class="stack plain-fieldset" disabled={!editable}>
        <div class="stack-tight">
          <label>
            <input type="checkbox" name="enabled" checked={n.enabled} />
            Record each fetch and XMLHttpRequest (method, address, status, timing, sizes)
          </label>
          <label>
            <input type="checkbox" name="vitals" checked={n.vitals} />
            Measure web vitals (LCP, CLS, INP, FCP, TTFB) with them
          </label>
        </div>
        <div class="row">
          <label class="field field-grow">
            <span>Headers kept (at most {MAX_KEPT_HEADERS})</span>
            <textarea name="headers" rows={4} placeholder="content-type">
              {n.headers.join("\n")}
            </textarea>
          </label>
          <label class="field field-grow">
            <span>Record bodies of requests to (empty: none)</span>
            <textarea name="bodyUrls" rows={4} placeholder="/api/**">
              {n.bodyUrls.join("\n")}
            </textarea>
          </label>
        </div>
        <p class="muted small">
          <code>authorization</code>, <code>cookie</code>, <code>set-cookie</code>{" "}
          and any header whose name holds <code>token</code>, <code>secret</code>, <code>key</code>,
          {" "}
          <code>auth</code>, <code>session</code> or a credential word (<code>jwt</code>,{" "}
          <code>pass</code>, <code>pwd</code>, <code>cred</code>, <code>sign</code>,{" "}
          <code>dpop</code>, <code>bearer</code>, <code>cookie</code>, <code>ticket</code>,{" "}
          <code>saml</code>, <code>state</code>) are never kept.{ignored.length > 0 &&
            ` Not kept from this list: ${ignored.join(", ")}.`}
        </p>
        <p class="muted small">
          Bodies: text, JSON and forms only, at most 150 KB each, one path per line (at most{" "}
          {MAX_URL_RULES}). Passwords, tokens, card numbers and the like become{" "}
          <code>[redacted]</code>{" "}
          in the browser, as do secret query parameters in every address; with input masking on,
          every value of a request's or a response's body is masked like an input (a response's text
          loses its emails, long numbers and tokens).
        </p>
        {editable && (
          <p>
            <button type="submit" name="intent" value="save-network">Save network settings</button>
          </p>
        )}
      </fieldset>
    </form>
  );
}
