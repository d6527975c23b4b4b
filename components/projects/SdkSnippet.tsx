// The SDK snippet for a project: the script tag and the init call with its key (the full key for
// OWNERs, the masked one for everyone else), with a copy button when the key is real.
import CopyButton from "@/islands/CopyButton.tsx";

export function sdkSnippet(appUrl: string, key: string): string {
  return `<script src="${appUrl}/sdk/v1/playhead.js"></script>\n` +
    `<script>Playhead.init({ apiKey: "${key}", endpoint: "${appUrl}" })</script>`;
}

/**
 * Where the snippet goes, said the same way everywhere: early in <head>, so the recording starts
 * with the page and keeps what the page logs while it loads.
 */
export function SnippetPlacement() {
  return (
    <>
      as early as possible in the <code>&lt;head&gt;</code> of every page you want to record
    </>
  );
}

interface Props {
  appUrl: string;
  maskedKey: string;
  /** The full key, for OWNERs only. */
  fullKey: string | null;
}

export function SdkSnippet({ appUrl, maskedKey, fullKey }: Props) {
  const snippet = sdkSnippet(appUrl, fullKey ?? maskedKey);
  return (
    <>
      <pre class="snippet"><code data-testid="sdk-snippet">{snippet}</code></pre>
      {fullKey ? <CopyButton text={snippet} label="Copy snippet" /> : (
        <p class="notice notice-info">
          Only an owner of this organization can see the project key. Ask one to copy the snippet,
          or to give you the key.
        </p>
      )}
    </>
  );
}
