// Which AUTH_SECRET production accepts: long, varied, and not a placeholder.
/**
 * A session cookie is an HS256 JWT, so anyone holding one can test guesses of the secret offline
 * (`changeme` once fell in 11 ms). Production takes only a long secret that is not a
 * placeholder; the reason is named, never the secret.
 */
export const MIN_SECRET_LENGTH = 32;
/** Placeholders seen in examples and templates (the README's is `...`), compared letters-only. */
const PLACEHOLDER_SECRETS = [
  "changeme",
  "changethis",
  "replaceme",
  "secret",
  "password",
  "authsecret",
  "yoursecret",
  "yoursecrethere",
  "supersecret",
  "mysecret",
  "example",
  "test",
  "default",
  "playhead",
  "xxx",
];

/** Why a production secret is refused, or "" when it is acceptable. */
export function weakSecret(secret: string): string {
  const letters = secret.toLowerCase().replace(/[^a-z0-9]/g, "");
  // A placeholder, or one repeated to pass the length (`changemechangeme…`), or only punctuation.
  const placeholder = letters === "" ||
    PLACEHOLDER_SECRETS.some((word) => letters.replaceAll(word, "") === "");
  if (placeholder) return "a placeholder";
  if (secret.length < MIN_SECRET_LENGTH) return `${secret.length} characters`;
  if (new Set(secret).size < 8) return "too few distinct characters";
  return "";
}
