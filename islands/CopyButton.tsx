// Copies a text that is already on the page (e.g. the SDK snippet) to the clipboard.
import { useEffect, useState } from "preact/hooks";
import { useCopy } from "@/hooks/use_copy.ts";

interface Props {
  text: string;
  label: string;
}

export default function CopyButton({ text, label }: Props) {
  const [ready, setReady] = useState(false);
  const { status, copy } = useCopy();
  useEffect(() => setReady(true), []);

  const byHand = "The browser refused the clipboard: select the text and copy it by hand.";
  return (
    <span class="row">
      <button type="button" onClick={() => copy(text, byHand)} disabled={!ready}>{label}</button>
      <span class="muted" role="status" aria-live="polite">{status}</span>
    </span>
  );
}
