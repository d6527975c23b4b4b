// A project's key, masked until asked for: "Show" fetches it from the API (OWNER only, no-store)
// and "Copy" puts it on the clipboard.
import { useEffect, useState } from "preact/hooks";

interface Props {
  projectId: string;
  maskedKey: string;
}

export default function ProjectKey({ projectId, maskedKey }: Props) {
  const [ready, setReady] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [status, setStatus] = useState("");

  useEffect(() => setReady(true), []);

  async function fetchKey(): Promise<string | null> {
    if (key) return key;
    const res = await fetch(`/api/projects/${encodeURIComponent(projectId)}/key`, {
      cache: "no-store",
    }).catch(() => null);
    if (!res?.ok) {
      setStatus("The key could not be loaded.");
      return null;
    }
    const body: { key: string } = await res.json();
    setKey(body.key);
    return body.key;
  }

  async function toggle() {
    if (shown) return setShown(false);
    if (await fetchKey()) setShown(true);
  }

  async function copy() {
    const value = await fetchKey();
    if (!value) return;
    try {
      await navigator.clipboard.writeText(value);
      setStatus("Copied to the clipboard.");
    } catch {
      setStatus("The browser refused the clipboard: show the key and copy it by hand.");
    }
  }

  return (
    <span class="project-key">
      <code data-testid="project-key">{shown && key ? key : maskedKey}</code>
      <button type="button" onClick={toggle} disabled={!ready} aria-pressed={shown}>
        {shown ? "Hide" : "Show"}
      </button>
      <button type="button" onClick={copy} disabled={!ready}>Copy</button>
      <span class="muted" role="status" aria-live="polite">{status}</span>
    </span>
  );
}
