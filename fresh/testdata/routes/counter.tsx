import Counter from "@/fresh/testdata/islands/Counter.tsx";

export default function CounterPage({ url }: { url: URL }) {
  const label = url.searchParams.get("label") ?? "Clicks";
  return (
    <section>
      <h1>Counter page</h1>
      <Counter start={3} label={label} />
      <Counter start={10} label="Second" />
    </section>
  );
}
