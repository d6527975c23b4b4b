// A poll that runs only while the tab is visible: every `ms` milliseconds, and at once when the tab
// comes back (so what the viewer looks at is never stale). Returns the stop function.
export function whileVisible(poll: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  const start = () => {
    if (timer === undefined) timer = setInterval(poll, ms);
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const onVisibility = () => {
    if (document.visibilityState === "hidden") return stop();
    poll();
    start();
  };
  document.addEventListener("visibilitychange", onVisibility);
  if (document.visibilityState !== "hidden") start();
  return () => {
    stop();
    document.removeEventListener("visibilitychange", onVisibility);
  };
}
