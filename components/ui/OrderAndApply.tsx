// The end of a list's filter form: the sort direction, then Apply and a Reset to the bare page.
interface Props {
  sortDir: "asc" | "desc";
  resetHref: string;
}

export function OrderAndApply({ sortDir, resetHref }: Props) {
  return (
    <>
      <label class="field">
        <span>Order</span>
        <select name="sortDir">
          <option value="desc" selected={sortDir === "desc"}>Descending</option>
          <option value="asc" selected={sortDir === "asc"}>Ascending</option>
        </select>
      </label>
      <div class="row">
        <button type="submit">Apply</button>
        <a class="button ghost" href={resetHref}>Reset</a>
      </div>
    </>
  );
}
