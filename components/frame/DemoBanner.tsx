// The public demo's disclosure (NEXT_PUBLIC_SERVICE_DEMO_MODE=true), on every page.
export function DemoBanner() {
  return (
    <p class="demo-banner" role="note" data-testid="demo-banner">
      <strong>Public demo.</strong>{" "}
      Everything recorded or entered here is visible to other visitors of this demo and is deleted
      regularly. Do not record real people or enter personal data.
    </p>
  );
}
