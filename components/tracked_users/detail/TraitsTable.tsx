// The traits the SDK sent with identify(), as a table; the one that names the user is marked.
interface Props {
  traits: Record<string, unknown>;
  /** The trait key the display name comes from, if it does. */
  namingKey: string | null;
}

function show(value: unknown): string {
  if (value === null) return "null";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

export function TraitsTable({ traits, namingKey }: Props) {
  const entries = Object.entries(traits).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) {
    return <p class="muted">No traits: the SDK's identify() call sent none for this user.</p>;
  }
  return (
    <table class="table traits" data-testid="traits">
      <thead>
        <tr>
          <th scope="col">Trait</th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([key, value]) => (
          <tr key={key} data-trait={key}>
            <th scope="row">
              <code>{key}</code>
              {key === namingKey && <span class="badge badge-accent">display name</span>}
            </th>
            <td>
              <div class="trait-value" title={show(value)}>{show(value)}</div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
