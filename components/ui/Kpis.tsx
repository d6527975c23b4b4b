// A strip of headline numbers (the KPI cards above the sessions and users lists).
interface Props {
  label: string;
  items: { label: string; value: string; testId?: string }[];
}

export function Kpis({ label, items }: Props) {
  return (
    <dl class="kpis" aria-label={label}>
      {items.map((item) => (
        <div class="kpi" key={item.label}>
          <dt>{item.label}</dt>
          <dd data-testid={item.testId}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
