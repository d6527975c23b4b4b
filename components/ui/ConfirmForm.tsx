// A destructive form that only goes through with the exact phrase typed (checked again on the
// server): delete account, organization or project.
import type { ComponentChildren } from "preact";

interface Props {
  intent: string;
  phrase: string;
  /** The button's text, e.g. "Delete project". */
  action: string;
  /** Unique per page: ties the label to its field. */
  id: string;
  hidden?: Record<string, string>;
  children?: ComponentChildren;
}

export function ConfirmForm({ intent, phrase, action, id, hidden = {}, children }: Props) {
  return (
    <form method="post" class="stack confirm-form">
      {children}
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label for={id}>
        Type <strong>{phrase}</strong> to confirm
      </label>
      <input id={id} name="confirmation" required autocomplete="off" pattern={phrase} />
      <button type="submit" name="intent" value={intent} class="danger">{action}</button>
    </form>
  );
}
