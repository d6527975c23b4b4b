// The first script of every reference page: a longtask observer whose entries the bench reads
// after the visit (the recorder's longest task is the longest one while it records).

export const LONGTASK_OBSERVER = `<script>
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.longTasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
</script>`;
