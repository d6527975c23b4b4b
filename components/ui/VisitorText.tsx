// Text a recorded site chose, as a name in the dashboard: bidirectional controls removed, isolated
// from its surroundings, cut with an ellipsis by CSS where it is long, whole on hover.
import { withoutBidiControls } from "@/utils/format.ts";

export function VisitorText(props: { text: string; class?: string; testId?: string }) {
  const text = withoutBidiControls(props.text);
  return (
    <bdi
      class={props.class ? `visitor-text ${props.class}` : "visitor-text"}
      title={text}
      data-testid={props.testId}
    >
      {text}
    </bdi>
  );
}
