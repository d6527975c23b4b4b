import { useEffect, useState } from "preact/hooks";

export default function Counter(props: { start: number; label: string }) {
  const [count, setCount] = useState(props.start);
  // Hydration does not patch attributes, so "enabled once interactive" goes through an effect.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <div class="counter">
      <span class="label">{props.label}</span>
      <output class="count">{count}</output>
      <button type="button" class="inc" disabled={!ready} onClick={() => setCount(count + 1)}>
        +1
      </button>
    </div>
  );
}
