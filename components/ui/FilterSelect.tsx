// A filter form's labelled select: "any" first (an empty value, left out of the URL), then the
// offered choices, the URL's own one selected.

interface Props {
  label: string;
  name: string;
  /** The choices as [value, label]. */
  options: readonly (readonly [string | number, string])[];
  /** The value in the URL, if any. */
  selected: string | number | undefined;
  /** What the empty choice says. */
  any?: string;
}

export function FilterSelect({ label, name, options, selected, any = "Any" }: Props) {
  return (
    <label class="field">
      <span>{label}</span>
      <select name={name}>
        <option value="">{any}</option>
        {options.map(([value, text]) => (
          <option key={value} value={value} selected={selected !== undefined && value === selected}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
