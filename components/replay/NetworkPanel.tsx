// The Network tab: the recording's requests (fetch and XHR) with method, path, status and
// duration at their time from the session start; failures (5xx, no answer) marked; the request at
// the current time highlighted; a click seeks there and opens its details: the headers and bodies
// the project kept, redacted in the browser. Recorded text is rendered as text, never markup.
import { useState } from "preact/hooks";
import type { NetworkEntry } from "@/player/ui/network_entries.ts";
import { clock } from "@/player/ui/format.ts";

interface Props {
  entries: NetworkEntry[];
  /** Index in `entries` of the request at the current time, or -1. */
  current: number;
  onSeek(real: number): void;
}

const size = (bytes: number | null) =>
  bytes === null ? "—" : bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;

function Headers({ title, headers }: { title: string; headers?: Record<string, string> }) {
  const list = Object.entries(headers ?? {});
  return (
    <section>
      <h4>{title}</h4>
      {list.length === 0 ? <p class="muted">None kept.</p> : (
        <dl class="net-headers">
          {list.map((
            [name, value],
          ) => [<dt key={`n${name}`}>{name}</dt>, <dd key={name}>{value}</dd>])}
        </dl>
      )}
    </section>
  );
}

function Details({ entry }: { entry: NetworkEntry }) {
  return (
    <div class="net-details" data-testid="network-details">
      <p class="net-url">{entry.url}</p>
      <p class="muted">
        {entry.status === 0 ? "No answer" : `Status ${entry.status}`} · {entry.durationMs} ms · sent
        {" "}
        {size(entry.requestSize)} · received {size(entry.responseSize)}
      </p>
      <Headers title="Request headers" headers={entry.requestHeaders} />
      <Headers title="Response headers" headers={entry.responseHeaders} />
      {entry.requestBody !== undefined && (
        <section>
          <h4>Request body</h4>
          <pre class="net-body">{entry.requestBody}</pre>
        </section>
      )}
      {entry.responseBody !== undefined && (
        <section>
          <h4>Response body</h4>
          <pre class="net-body">{entry.responseBody}</pre>
        </section>
      )}
    </div>
  );
}

export function NetworkPanel({ entries, current, onSeek }: Props) {
  const [open, setOpen] = useState(-1);
  if (entries.length === 0) {
    return (
      <p class="muted panel-empty">
        No requests recorded in this session (the project's network settings turn them on).
      </p>
    );
  }
  return (
    <ol class="console-list net-list">
      {entries.map((entry, i) => (
        <li key={i}>
          <button
            type="button"
            class={`console-row net-row${entry.failed ? " net-failed" : ""}`}
            aria-current={i === current ? "true" : undefined}
            aria-expanded={i === open}
            data-status={entry.status}
            onClick={() => {
              setOpen(i === open ? -1 : i);
              onSeek(entry.offsetMs);
            }}
          >
            <span class="net-method">{entry.method}</span>
            <span class="net-path" title={entry.url}>{entry.path}</span>
            <span class="net-status">
              {entry.failed && <span class="visually-hidden">Failed:</span>}
              {entry.status === 0 ? "failed" : entry.status}
            </span>
            <span class="net-duration">{entry.durationMs} ms</span>
            <span class="console-time">{clock(entry.offsetMs)}</span>
          </button>
          {i === open && <Details entry={entry} />}
        </li>
      ))}
    </ol>
  );
}
