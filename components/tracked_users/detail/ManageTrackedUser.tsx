// ADMIN+ controls of a tracked user: the custom name and the trait that names them (the page's
// own forms), their data exported, erasure (the user and every session, after a confirmation
// naming the count) and deletion (their sessions stay, as anonymous), each after a confirmation.
import type { TrackedUserDetail } from "@/core/tracked_users/schema.ts";
import { VisitorText } from "@/components/ui/VisitorText.tsx";
import { trackedUserExportPath } from "@/page_state/tracked_user.ts";

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
      <div class="stack">
        <h3 id="data-heading">Their data</h3>
        <p class="muted small">
          A data-subject request: everything recorded of them as one JSON file (traits, sessions,
          pages, markers, comments, links to the replays).
        </p>
        <div>
          <a class="button" href={trackedUserExportPath(user.id)} download>Export data</a>
        </div>
      </div>
      <details class="danger-details" data-testid="erase-user">
        <summary>Erase this user and their data</summary>
        <form method="post" class="stack">
          <p class="small">
            <VisitorText text={user.displayName} /> and{" "}
            <strong>{sessionsText(user.sessionCount)}</strong>{" "}
            are erased at once and for good: recordings, markers, signals, comments and public
            links. Their recordings in the store can no longer be decrypted, and a tab of theirs
            still open records nothing more. This cannot be undone.
          </p>
          <div>
            <button type="submit" name="intent" value="erase-user" class="danger">
              Yes, erase {sessionsText(user.sessionCount)}
            </button>
          </div>
        </form>
      </details>
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

function sessionsText(count: number): string {
  return `${count.toLocaleString("en")} ${count === 1 ? "session" : "sessions"}`;
}
