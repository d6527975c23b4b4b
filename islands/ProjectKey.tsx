// A project's key, masked until asked for: "Show" fetches it from the API (OWNER only, no-store)
// and "Copy" puts it on the clipboard.
import { useEffect, useState } from "preact/hooks";
import { useCopy } from "@/hooks/use_copy.ts";
import { apiJson } from "@/utils/api_client.ts";

interface Props {
  projectId: string;
  maskedKey: string;
}

export default function ProjectKey({ projectId, maskedKey }: Props) {
  const [ready, setReady] = useState(false);
  const [key, setKey] = useState<string | null>(null);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState("");
  const { status, copy } = useCopy();

  useEffect(() => setReady(true), []);

  async function fetchKey(): Promise<string | null> {
    if (key) return key;
    try {
      const body = await apiJson<{ key: string }>(
        `/api/projects/${encodeURIComponent(projectId)}/key`,
      );
      setFailure("");
      setKey(body.key);
      return body.key;
    } catch (error) {
      setFailure(`The key could not be loaded: ${(error as Error).message}.`);
      return null;
    }
  }

  async function toggle() {
    if (shown) return setShown(false);
    if (await fetchKey()) setShown(true);
  }

  async function copyKey() {
    const value = await fetchKey();
    if (value) {
      await copy(value, "The browser refused the clipboard: show the key and copy it by hand.");
    }
  }

  return (
    <span class="project-key">
      <code data-testid="project-key">{shown && key ? key : maskedKey}</code>
      <button type="button" onClick={toggle} disabled={!ready} aria-pressed={shown}>
        {shown ? "Hide" : "Show"}
      </button>
      <button type="button" onClick={copyKey} disabled={!ready}>Copy</button>
      <span class="muted" role="status" aria-live="polite">{failure || status}</span>
    </span>
  );
}
