// A form acting on one item of a list (a row's buttons): it posts to the page that shows it with
// the item's ids in hidden fields, and its buttons name the action (`intent`, http/forms.ts).
import type { ComponentChildren } from "preact";

interface Props {
  /** Hidden fields naming the item, e.g. `{ inviteId: invite.id }`. */
  item: Record<string, string>;
  /** The layout: buttons in a row (the default), or stacked. */
  class?: string;
  children: ComponentChildren;
}

export function RowForm({ item, class: layout = "row", children }: Props) {
  return (
    <form method="post" class={layout}>
      {Object.entries(item).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </form>
  );
}
