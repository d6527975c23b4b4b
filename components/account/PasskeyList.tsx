// The user's passkeys, each with rename and delete forms.
import type { Passkey } from "@/core/auth/passkeys/passkeys.ts";
import { RowForm } from "@/components/ui/RowForm.tsx";

export function PasskeyList({ passkeys }: { passkeys: Passkey[] }) {
  if (passkeys.length === 0) return <p class="muted">You have no passkeys.</p>;
  return (
    <ul class="plain-list stack">
      {passkeys.map((p, i) => (
        <li key={p.credentialID} class="row" data-passkey={p.name}>
          <RowForm item={{ credentialId: p.credentialID }}>
            <label for={`passkey-${i}`} class="visually-hidden">Name of passkey {p.name}</label>
            <input id={`passkey-${i}`} name="name" value={p.name} required maxLength={50} />
            <button type="submit" name="intent" value="rename-passkey">Rename</button>
            <button type="submit" name="intent" value="delete-passkey" class="danger">
              Delete
            </button>
          </RowForm>
          <small class="muted">added {p.createdAt.slice(0, 10)}</small>
        </li>
      ))}
    </ul>
  );
}
