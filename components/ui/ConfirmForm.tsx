// A destructive form that only goes through with the exact phrase typed (checked again on the
// server): delete account, organization or project.
import type { ComponentChildren } from "preact";
import { RowForm } from "./RowForm.tsx";

interface Props {
  intent: string;
  phrase: string;
  /** The button's text, e.g. "Delete project". */
  action: string;
  /** Unique per page: ties the label to its field. */
  id: string;
  /** Hidden fields naming the item it deletes, if any (RowForm). */
  item?: Record<string, string>;
  children?: ComponentChildren;
}

export function ConfirmForm({ intent, phrase, action, id, item = {}, children }: Props) {
  return (
    <RowForm item={item} class="stack confirm-form">
      {children}
      <label for={id}>
        Type <strong>{phrase}</strong> to confirm
      </label>
      <input id={id} name="confirmation" required autocomplete="off" pattern={phrase} />
      <button type="submit" name="intent" value={intent} class="danger">{action}</button>
    </RowForm>
  );
}
