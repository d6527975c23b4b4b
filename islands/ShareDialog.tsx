// The replay page's Share dialog (docs/decisions.md "Shares"): ADMIN+ makes a public link (expiry,
// an optional window, the console or not) and sees its URL once; every member sees the session's
// links with their views; ADMIN+ revokes them.
import { useRef, useState } from "preact/hooks";
import { ShareList } from "@/components/shares/ShareList.tsx";
import type { CreatedShare, ShareOut } from "@/core/shares/schema.ts";
import { useCopy } from "@/hooks/use_copy.ts";
import { apiJson, apiPost, apiSend } from "@/utils/api_client.ts";
import { parseMoment } from "@/components/shares/moment.ts";

interface Props {
  sessionId: string;
  /** ADMIN+ may make and revoke links. */
  canManage: boolean;
  /** Turned off by the organization's `allowPublicLinks`. */
  allowed: boolean;
}

const EXPIRIES = [
  { hours: 1, label: "1 hour" },
  { hours: 24, label: "1 day" },
  { hours: 168, label: "7 days" },
  { hours: 720, label: "30 days" },
];

export default function ShareDialog({ sessionId, canManage, allowed }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [shares, setShares] = useState<ShareOut[] | null>(null);
  const [hours, setHours] = useState(168);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [showConsole, setShowConsole] = useState(false);
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { status: copyStatus, copy } = useCopy();
  const path = `/api/sessions/${sessionId}/shares`;

  const reload = async () => setShares((await apiJson<{ shares: ShareOut[] }>(path)).shares);

  async function open() {
    setCreated(null);
    setError(null);
    dialog.current?.showModal();
    await reload().catch((e) => setError((e as Error).message));
  }

  async function create(event: Event) {
    event.preventDefault();
    setError(null);
    const startMs = parseMoment(from), endMs = parseMoment(to);
    if (Number.isNaN(startMs) || Number.isNaN(endMs)) {
      return setError("Write moments as m:ss, like 0:40.");
    }
    try {
      const made = await apiPost<CreatedShare>(path, {
        expiresInHours: hours,
        ...(startMs === null ? {} : { startMs }),
        ...(endMs === null ? {} : { endMs }),
        showConsole,
      });
      setCreated(made);
      await reload();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  async function revoke(share: ShareOut) {
    try {
      await apiSend("DELETE", `/api/shares/${share.id}`);
      await reload();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  return (
    <>
      <button type="button" class="share-button" onClick={open}>Share</button>
      <dialog ref={dialog} class="share-dialog" aria-labelledby="share-title">
        <div class="share-dialog-head">
          <h2 id="share-title">Share this replay</h2>
          <button
            type="button"
            class="ghost"
            aria-label="Close"
            onClick={() => dialog.current?.close()}
          >
            ✕
          </button>
        </div>
        <p class="muted">
          A link opens the replay without signing in, until it expires or is revoked. It shows no
          user, project or organization; only the part you choose; the console only if you say.
        </p>
        {canManage && allowed && (
          <form class="share-form" onSubmit={create}>
            <label>
              Expires after
              <select
                value={String(hours)}
                onChange={(e) => setHours(Number((e.target as HTMLSelectElement).value))}
              >
                {EXPIRIES.map((x) => (
                  <option key={x.hours} value={String(x.hours)}>{x.label}</option>
                ))}
              </select>
            </label>
            <label>
              From{" "}
              <input
                name="from"
                placeholder="0:00"
                size={6}
                value={from}
                onInput={(e) => setFrom((e.target as HTMLInputElement).value)}
              />
            </label>
            <label>
              To{" "}
              <input
                name="to"
                placeholder="end"
                size={6}
                value={to}
                onInput={(e) => setTo((e.target as HTMLInputElement).value)}
              />
            </label>
            <label class="toggle">
              <input
                type="checkbox"
                checked={showConsole}
                onChange={(e) => setShowConsole((e.target as HTMLInputElement).checked)}
              />
              Show the console
            </label>
            <button type="submit">Create link</button>
          </form>
        )}
        {canManage && !allowed && (
          <p class="notice">Public links are turned off for this organization (its settings).</p>
        )}
        {!canManage && <p class="notice">Only an admin or owner can make or revoke links.</p>}
        {error && <p class="form-error" role="alert">{error}</p>}
        {created && (
          <div class="share-created">
            <label for="share-url">The link (shown this once: copy it now)</label>
            <div class="share-url-row">
              <input
                id="share-url"
                readOnly
                value={created.url}
                onFocus={(e) => (e.target as HTMLInputElement).select()}
              />
              <button
                type="button"
                onClick={() => copy(created.url, "Select the link and copy it.")}
              >
                Copy
              </button>
            </div>
            <span class="copy-status" role="status" aria-live="polite">{copyStatus}</span>
          </div>
        )}
        <h3>Links to this session</h3>
        {shares === null
          ? <p class="muted">Loading…</p>
          : <ShareList shares={shares} canManage={canManage} onRevoke={revoke} />}
      </dialog>
    </>
  );
}
