// Copies a text that is already on the page (e.g. the SDK snippet) to the clipboard.
import { useEffect, useState } from "preact/hooks";

interface Props {
  text: string;
  label: string;
}

export default function CopyButton({ text, label }: Props) {
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  useEffect(() => setReady(true), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copied.");
    } catch {
      setStatus("The browser refused the clipboard: select the text and copy it by hand.");
    }
  }

  return (
    <span class="row">
      <button type="button" onClick={copy} disabled={!ready}>{label}</button>
      <span class="muted" role="status" aria-live="polite">{status}</span>
    </span>
  );
}
