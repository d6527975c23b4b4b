// What the app needs at run time, built once by main.ts (or a test) and handed to every surface.
import type { Config } from "@/config.ts";
import type { DatabaseKind, Db } from "@/db/client.ts";
import { migrationLevel } from "@/db/migrator.ts";
import { createLastUsedWriter } from "./ingest/ingest.ts";
import { LastUsedTracker } from "./ingest/last_used.ts";
import { KnownKeys } from "./ingest/known_keys.ts";
import { keyProject } from "@/db/queries/projects/projects.ts";
import { createMailer, type Mailer } from "./mailer.ts";
import { resolveAuthSecret } from "./auth/token.ts";
import { ObjectStore } from "@/db/object_store.ts";
import { Metrics } from "./service/metrics.ts";
import { ServerFrames } from "./sessions/server_frames.ts";
import { CutPool } from "./shares/cut_pool.ts";
import { OpenPool } from "./storage/open_pool.ts";
import { LinkCuts } from "./shares/link_cuts.ts";
import { AppPools } from "./worker_pool.ts";
import { watchApp, watchStore } from "./service/metrics_sources.ts";
import denoJson from "@/deno.json" with { type: "json" };

export const VERSION: string = denoJson.version;

export interface ServiceStatus {
  version: string;
  databaseKind: DatabaseKind;
  migrationLevel: string;
}

export interface AppDeps {
  config: Config;
  db: Db;
  lastUsed: LastUsedTracker;
  /**
   * Public keys some project has, remembered briefly with whether it records requests: ingest
   * refuses others before the body, and keeps no request of a project that records none.
   */
  knownKeys: KnownKeys;
  /** Signs session tokens and peppers one-time codes (AUTH_SECRET or a per-process secret). */
  authSecret: string;
  /** null when no SMTP account is configured. */
  mailer: Mailer | null;
  /** Where event batches are offloaded (EVENTS_STORE); null keeps them in PostgreSQL. */
  store: ObjectStore | null;
  /** This app's Prometheus registry and instruments (GET /metrics). */
  metrics: Metrics;
  /**
   * The replay page's frames: the worker that draws them (started on the first) and the cache of
   * those drawn; `close()` ends the worker.
   */
  frames: ServerFrames;
  /**
   * The worker that decodes and cuts public links' windows and exports (started on the first;
   * `close()` ends it).
   */
  cuts: CutPool;
  /**
   * The worker that opens sealed batches read from the store (started by the first large read;
   * `close()` ends it).
   */
  opens: OpenPool;
  /** Public links' cuts, cached per link, window and stored event count (made in `cuts`). */
  linkCuts: LinkCuts;
  /**
   * Worker pools made on first use: ingest's decode workers, the heatmaps' derive worker
   * (core/heatmaps/derive_pool.ts).
   */
  workers: AppPools;
  status(): Promise<ServiceStatus>;
  /** Ends the app's workers (frames, cuts, opens, the pools in `workers`) with the app. */
  close(): void;
}

export function createDeps(config: Config, db: Db): AppDeps {
  const metrics = new Metrics();
  const frames = new ServerFrames();
  const cuts = new CutPool();
  const opens = new OpenPool();
  const workers = new AppPools();
  watchApp(metrics, db, { store: config.eventsStore !== null });
  return {
    config,
    db,
    lastUsed: new LastUsedTracker(createLastUsedWriter(db)),
    knownKeys: new KnownKeys(async (key) => {
      const row = await keyProject(db.kysely, key);
      return row && { recordsNetwork: row.network_enabled };
    }),
    authSecret: resolveAuthSecret(config),
    mailer: createMailer(config.mail),
    store: config.eventsStore
      ? watchStore(
        metrics,
        new ObjectStore(
          config.eventsStore,
          (method, outcome) => metrics.storeRequest(method, outcome),
        ),
      )
      : null,
    metrics,
    frames,
    cuts,
    opens,
    linkCuts: new LinkCuts(cuts),
    workers,
    status: async () => ({
      version: VERSION,
      databaseKind: db.kind,
      migrationLevel: (await migrationLevel(db.kysely)) ?? "none",
    }),
    close: () => {
      frames.close();
      cuts.close();
      opens.close();
      workers.close();
    },
  };
}
