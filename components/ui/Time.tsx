// A moment as "3 minutes ago" with the exact time on hover. Server-rendered it reads in UTC;
// islands pass `local` once mounted, so the browser shows the viewer's own time zone.
import { formatExact, formatRelative } from "@/utils/format.ts";

interface Props {
  iso: string;
  now: Date;
  /** true in the browser after hydration: exact time in the viewer's time zone. */
  local?: boolean;
}

export function Time({ iso, now, local = false }: Props) {
  return (
    <time dateTime={iso} title={formatExact(iso, local ? undefined : "UTC")}>
      {formatRelative(iso, now)}
    </time>
  );
}
