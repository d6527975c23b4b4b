// The organization's open invites; ADMIN and OWNER invite (as ADMIN or VIEWER), resend and revoke.
import type { InviteView } from "@/core/organizations/schema.ts";
import { ActionsHeader } from "@/components/ui/ActionsHeader.tsx";
import { RowForm } from "@/components/ui/RowForm.tsx";

interface Props {
  invites: InviteView[];
  /** Whether the viewer may send, resend and revoke invites (ADMIN+). */
  manage: boolean;
}

export function InviteList({ invites, manage }: Props) {
  return (
    <>
      {invites.length === 0 ? <p class="muted">No open invites.</p> : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              {manage && <ActionsHeader />}
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id} data-invite={invite.email}>
                <td>{invite.email}</td>
                <td>{invite.role}</td>
                <td>{invite.status}</td>
                <td>
                  <time datetime={invite.expiresAt}>{invite.expiresAt.slice(0, 10)}</time>
                </td>
                {manage && (
                  <td class="actions">
                    <RowForm item={{ inviteId: invite.id }}>
                      <button type="submit" name="intent" value="resend-invite">Resend</button>
                      <button type="submit" name="intent" value="revoke-invite" class="danger">
                        Revoke
                      </button>
                    </RowForm>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {manage && (
        <form method="post" class="row">
          <label for="invite-email">Email</label>
          <input id="invite-email" name="email" type="email" required autocomplete="off" />
          <label for="invite-role">Role</label>
          <select id="invite-role" name="role">
            <option value="VIEWER">VIEWER</option>
            <option value="ADMIN">ADMIN</option>
          </select>
          <button type="submit" name="intent" value="invite">Send invite</button>
        </form>
      )}
    </>
  );
}
