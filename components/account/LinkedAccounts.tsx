// The sign-in providers linked to the user (with unlink) and the configured ones not yet linked
// (with a link that starts the provider's flow and comes back to the profile).
import { RowForm } from "@/components/ui/RowForm.tsx";

interface Props {
  /** Configured providers. */
  providers: Array<{ id: string; name: string }>;
  /** Ids of the providers linked to the user (possibly no longer configured). */
  linked: string[];
}

export function LinkedAccounts({ providers, linked }: Props) {
  const names = new Map(providers.map((p) => [p.id, p.name]));
  const ids = [...new Set([...linked, ...providers.map((p) => p.id)])];
  if (ids.length === 0) {
    return <p class="muted">No sign-in provider is configured on this server.</p>;
  }
  return (
    <ul class="plain-list stack">
      {ids.map((id) => {
        const name = names.get(id) ?? id;
        return (
          <li key={id} class="row" data-provider={id}>
            <span>{name}</span>
            {linked.includes(id)
              ? (
                <RowForm item={{ provider: id }}>
                  <span class="badge">linked</span>
                  <button type="submit" name="intent" value="unlink">Unlink {name}</button>
                </RowForm>
              )
              : (
                <a href={`/api/auth/signin/${id}?link=1&callbackUrl=%2Fsettings%2Fprofile`}>
                  Link {name}
                </a>
              )}
          </li>
        );
      })}
    </ul>
  );
}
