// The organization's members, oldest first, with the controls the viewer's role allows: OWNER
// changes roles and removes others; everyone may leave.
import type { MembershipView } from "@/core/organizations/schema.ts";
import type { Role } from "@/core/permissions.ts";
import { ActionsHeader } from "@/components/ui/ActionsHeader.tsx";
import { RowForm } from "@/components/ui/RowForm.tsx";

const ROLES: Role[] = ["OWNER", "ADMIN", "VIEWER"];

interface Props {
  members: MembershipView[];
  viewerId: string;
  viewerRole: Role;
}

export function MemberList({ members, viewerId, viewerRole }: Props) {
  const owner = viewerRole === "OWNER";
  return (
    <table class="table">
      <thead>
        <tr>
          <th scope="col">Member</th>
          <th scope="col">Role</th>
          <th scope="col">Joined</th>
          <ActionsHeader />
        </tr>
      </thead>
      <tbody>
        {members.map((m) => {
          const self = m.user.id === viewerId;
          const label = m.user.name ?? m.user.email;
          return (
            <tr key={m.id} data-member={m.user.email}>
              <td>
                <span class="row">
                  <img class="avatar-small" src={m.user.image} alt="" width={24} height={24} />
                  <span>
                    {label}
                    {self && " (you)"}
                    <br />
                    <small class="muted">{m.user.email}</small>
                  </span>
                </span>
              </td>
              <td>
                {owner
                  ? (
                    <RowForm item={{ memberId: m.id }}>
                      <label for={`role-${m.id}`} class="visually-hidden">Role of {label}</label>
                      <select id={`role-${m.id}`} name="role">
                        {ROLES.map((r) => (
                          <option key={r} value={r} selected={r === m.role}>{r}</option>
                        ))}
                      </select>
                      <button type="submit" name="intent" value="change-role">Save role</button>
                    </RowForm>
                  )
                  : m.role}
              </td>
              <td>
                <time datetime={m.joinedAt}>{m.joinedAt.slice(0, 10)}</time>
              </td>
              <td class="actions">
                {(self || owner) && (
                  <RowForm item={{ memberId: m.id }}>
                    <button type="submit" name="intent" value="remove-member" class="danger">
                      {self ? "Leave" : `Remove ${label}`}
                    </button>
                  </RowForm>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
