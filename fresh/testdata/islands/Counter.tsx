import { useState } from "preact/hooks";
import { IS_BROWSER } from "$fresh/runtime.ts";

export default function Counter(props: { start: number; label: string }) {
  const [count, setCount] = useState(props.start);
  return (
    <div class="counter">
      <span class="label">{props.label}</span>
      <output class="count">{count}</output>
      <button type="button" class="inc" disabled={!IS_BROWSER} onClick={() => setCount(count + 1)}>
        +1
      </button>
    </div>
  );
}
