// Invites waiting for the signed-in person, on every page but the invites' own: someone invited
// to a team sees it wherever they land, not an empty workspace with no word of it.
import type { UserInviteView } from "@/core/account/invites.ts";
import { VisitorText } from "@/components/ui/VisitorText.tsx";

export function InvitesWaiting({ invites }: { invites: UserInviteView[] }) {
  if (invites.length === 0) return null;
  const [first] = invites;
  return (
    <p class="invites-banner" role="status" data-testid="invites-waiting">
      {invites.length === 1
        ? (
          <>
            <strong>
              <VisitorText text={first.organization.name} />
            </strong>{" "}
            invites you to join as {first.role.toLowerCase()}.
          </>
        )
        : <>{invites.length} organizations invite you to join them.</>}{" "}
      <a href="/invites">See {invites.length === 1 ? "the invite" : "your invites"}</a>
    </p>
  );
}
