// The ingest write's session summary step (migration 0010 and 0014): the columns of the session
// upsert that summarise its batches, url markers, signal counts and parsed user agent.
import { type RawBuilder, sql } from "kysely";
import type { IngestRow } from "./write.ts";

/** The summary's columns and values for a new session, and its SET clause for an existing one. */
export function sessionSummary(
  row: IngestRow,
  startedAt: RawBuilder<unknown>,
  newStarted: RawBuilder<unknown>,
) {
  const m = row.metadata;
  const b = row.batch;
  const hasMarkers = b !== null && b.markersJson !== "[]";
  const none = sql``;
  // The session's summary for activity (migration 0010): url markers in (ts, id) order and each
  // stored batch's first_ts / event_count, written with the rows they summarise.
  const urlEvents = hasMarkers ? urlMarkersJson(b.markersJson) : null;
  const summariseUrls = urlEvents !== null || m !== null;
  /** The url markers after this request: `old` ones first, then this request's in insert order. */
  const urlSummary = (
    old: boolean,
    started: RawBuilder<unknown>,
    metadataMarker: RawBuilder<unknown>,
  ) => {
    const parts = [
      old && sql`SELECT t.ts, t.p, 0 AS src, t.o
        FROM unnest(sessions.url_ts, sessions.url_pathnames) WITH ORDINALITY AS t(ts, p, o)`,
      urlEvents !== null &&
      sql`SELECT (e ->> 'ts')::bigint AS ts, e -> 'data' ->> 'pathname' AS p, 1 AS src, x.o
        FROM jsonb_array_elements(${urlEvents}::text::jsonb) WITH ORDINALITY AS x(e, o)
        WHERE EXISTS (SELECT 1 FROM batch)`,
      m !== null && sql`SELECT (extract(epoch FROM ${started}) * 1000)::bigint AS ts,
        ${m.pathname}::text AS p, 2 AS src, 1::bigint AS o WHERE ${metadataMarker}`,
    ].filter((part) => part !== false);
    return sql`SELECT COALESCE(array_agg(u.ts ORDER BY u.ts, u.src, u.o), '{}') AS ts,
        COALESCE(array_agg(u.p ORDER BY u.ts, u.src, u.o), '{}') AS pathnames
      FROM (${sql.join(parts, sql` UNION ALL `)}) AS u`;
  };
  const signals = b?.signals ?? null;
  const network = b?.network ?? null;
  const summaryColumns = sql`${b ? sql`, batch_ts, batch_events` : none}${
    summariseUrls ? sql`, url_ts, url_pathnames` : none
  }${signals ? sql`, error_count, rage_click_count, dead_click_count` : none}${
    m ? sql`, browser, os, device` : none
  }${network ? sql`, network_error_count, max_request_ms, web_vitals` : none}`;
  const summaryValues = sql`${
    b
      ? sql`, CASE WHEN batch.id IS NULL THEN '{}' ELSE ARRAY[${b.firstTs}::bigint] END,
        CASE WHEN batch.id IS NULL THEN '{}' ELSE ARRAY[${b.eventCount}::integer] END`
      : none
  }${summariseUrls ? sql`, urls.ts, urls.pathnames` : none}${
    // counted only when this request stores the batch (a retry adds nothing)
    signals
      ? sql`, CASE WHEN batch.id IS NULL THEN 0 ELSE ${signals.errors}::integer END,
        CASE WHEN batch.id IS NULL THEN 0 ELSE ${signals.rageClicks}::integer END,
        CASE WHEN batch.id IS NULL THEN 0 ELSE ${signals.deadClicks}::integer END`
      : none}${m ? sql`, ${m.browser}::text, ${m.os}::text, ${m.device}::text` : none}${
    // the network summary (migration 0028), also only when this request stores the batch
    network
      ? sql`, CASE WHEN batch.id IS NULL THEN 0 ELSE ${network.errors}::integer END,
        CASE WHEN batch.id IS NULL THEN 0 ELSE ${network.maxRequestMs}::integer END,
        CASE WHEN batch.id IS NULL THEN '{}'::text[] ELSE ${network.vitals}::text[] END`
      : none}`;
  const summaryFrom = sql`${b ? sql`LEFT JOIN batch ON true` : none} ${
    summariseUrls
      ? sql`CROSS JOIN LATERAL (${urlSummary(false, startedAt, sql`true`)}) AS urls`
      : none
  }`;
  const summaryUpdate = sql`${
    b
      ? sql`batch_ts = sessions.batch_ts || EXCLUDED.batch_ts,
        batch_events = sessions.batch_events || EXCLUDED.batch_events,`
      : none
  }${
    summariseUrls
      ? sql`(url_ts, url_pathnames) = (${urlSummary(true, newStarted, sql`sessions.url IS NULL`)}),`
      : none
  }${
    signals
      ? sql`error_count = sessions.error_count + EXCLUDED.error_count,
        rage_click_count = sessions.rage_click_count + EXCLUDED.rage_click_count,
        dead_click_count = sessions.dead_click_count + EXCLUDED.dead_click_count,`
      : none
  }${
    network
      ? sql`network_error_count = sessions.network_error_count + EXCLUDED.network_error_count,
        max_request_ms = GREATEST(sessions.max_request_ms, EXCLUDED.max_request_ms),
        web_vitals = ARRAY(SELECT DISTINCT v
          FROM unnest(sessions.web_vitals || EXCLUDED.web_vitals) AS t(v) ORDER BY v),`
      : none
  }${
    // with the user agent they were parsed from
    m
      ? sql`browser = CASE WHEN sessions.user_agent IS NULL THEN EXCLUDED.browser
          ELSE sessions.browser END,
        os = CASE WHEN sessions.user_agent IS NULL THEN EXCLUDED.os ELSE sessions.os END,
        device = CASE WHEN sessions.user_agent IS NULL THEN EXCLUDED.device
          ELSE sessions.device END,`
      : none}`;
  return { summaryColumns, summaryValues, summaryFrom, summaryUpdate };
}

/** The url markers of a batch's `service:*` markers (JSON as built by core), or null for none. */
function urlMarkersJson(markersJson: string): string | null {
  const urls = (JSON.parse(markersJson) as { kind: string }[]).filter((m) => m.kind === "url");
  return urls.length ? JSON.stringify(urls) : null;
}
