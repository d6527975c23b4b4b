// ADMIN+ controls of a tracked user: the custom name and the trait that names them (the page's
// own forms), and deletion after a confirmation step (their sessions stay, as anonymous).
import type { TrackedUserDetail } from "@/core/tracked_users/schema.ts";
import { VisitorText } from "@/components/ui/VisitorText.tsx";

interface Props {
  user: TrackedUserDetail;
  /** The project's default trait key, used when the user has none of their own. */
  projectTraitKey: string | null;
}

export function ManageTrackedUser({ user, projectTraitKey }: Props) {
  const keys = Object.keys(user.traits).sort();
  if (user.displayNameTraitKey && !keys.includes(user.displayNameTraitKey)) {
    keys.push(user.displayNameTraitKey);
  }
  return (
    <div class="stack">
      <form method="post" class="stack" aria-labelledby="display-name-heading">
        <h3 id="display-name-heading">Display name</h3>
        <p class="muted small">
          A custom name wins; else the chosen trait; else the project's default trait
          {projectTraitKey
            ? (
              <>
                (<code>{projectTraitKey}</code>)
              </>
            )
            : " (none set)"}; else the <code>name</code> trait, then{" "}
          <code>email</code>; else the external id.
        </p>
        <label class="field">
          <span>Custom name</span>
          <input
            name="customName"
            value={user.customName ?? ""}
            maxLength={120}
            placeholder="None: use a trait"
          />
        </label>
        <label class="field">
          <span>Name from trait</span>
          <select name="traitKey">
            <option value="" selected={!user.displayNameTraitKey}>Project default</option>
            {keys.map((key) => (
              <option key={key} value={key} selected={key === user.displayNameTraitKey}>
                {key}
              </option>
            ))}
          </select>
        </label>
        <div>
          <button type="submit" name="intent" value="set-display-name">Save name</button>
        </div>
      </form>
      <details class="danger-details">
        <summary>Delete this user</summary>
        <form method="post" class="stack">
          <p class="small">
            <VisitorText text={user.displayName} />{" "}
            disappears from Users. Their sessions and recordings stay, as anonymous sessions.
          </p>
          <div>
            <button type="submit" name="intent" value="delete-user" class="danger">
              Yes, delete <VisitorText text={user.displayName} />
            </button>
          </div>
        </form>
      </details>
    </div>
  );
}
