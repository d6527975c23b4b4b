// The sessions page of an organization that has recorded nothing yet: how to start (the SDK
// snippet with the key for OWNERs), and a live wait that turns into the list on the first batch.
import type { ProjectView } from "@/core/projects/schema.ts";
import WaitingForFirstSession from "@/islands/WaitingForFirstSession.tsx";
import { SdkSnippet, SnippetPlacement } from "@/components/projects/SdkSnippet.tsx";
import { NoProjects } from "@/components/projects/NoProjects.tsx";

interface Props {
  /** The project to set up first; null when the organization has none. */
  project: ProjectView | null;
  appUrl: string;
  fullKey: string | null;
  isOwner: boolean;
}

export function SessionsEmpty({ project, appUrl, fullKey, isOwner }: Props) {
  if (!project) {
    return <NoProjects canCreate={isOwner} testId="sessions-empty" />;
  }
  return (
    <section class="card empty empty-setup stack" data-testid="sessions-empty">
      <h2>Record your first session</h2>
      <p>
        Add this snippet <SnippetPlacement />. It records into <strong>{project.name}</strong>.
      </p>
      <SdkSnippet
        appUrl={appUrl}
        maskedKey={project.maskedKey}
        fullKey={isOwner ? fullKey : null}
      />
      <WaitingForFirstSession intervalMs={3_000} />
    </section>
  );
}
