import Counter from "@/fresh/testdata/islands/Counter.tsx";

export default function BadProps() {
  // A function is not JSON: rendering must fail with a clear error.
  const start = (() => 1) as unknown as number;
  return <Counter start={start} label="bad" />;
}
