// The page's lifecycle as the client reads it: leaving (pagehide), back from the back/forward
// cache (a persisted pageshow), and hidden (a tab switched away from, or closing).

export interface LifecycleHandlers {
  leave(): void;
  back(): void;
  hidden(): void;
}

export function watchLifecycle(on: LifecycleHandlers): void {
  addEventListener("pagehide", () => on.leave());
  addEventListener("pageshow", (e) => e.persisted && on.back());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") on.hidden();
  });
}
