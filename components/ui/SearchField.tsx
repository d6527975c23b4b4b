// A list's free-text search in its filter bar (a GET form): the `search` query parameter.
interface Props {
  value: string;
  /** What the search matches, e.g. "Name or user id". */
  placeholder: string;
}

export function SearchField({ value, placeholder }: Props) {
  return (
    <label class="field field-grow field-search">
      <span>Search</span>
      <input type="search" name="search" value={value} placeholder={placeholder} maxLength={200} />
    </label>
  );
}
