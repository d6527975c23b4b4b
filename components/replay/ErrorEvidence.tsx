// An error's whole message and stack under its History or Console row, folded until asked for:
// the row itself stays one line (History) or three (Console). Recorded text is shown as text.
export function ErrorEvidence({ text }: { text: string }) {
  return (
    <details class="error-evidence">
      <summary>Message and stack</summary>
      <pre>{text}</pre>
    </details>
  );
}
