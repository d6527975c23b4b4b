// The last column's header of a table whose rows end in buttons: named for screen readers only.
// Its cells take `class="actions"` too (narrow, right-aligned, on one line).
export function ActionsHeader() {
  return (
    <th scope="col" class="actions">
      <span class="visually-hidden">Actions</span>
    </th>
  );
}
