// Connection shares (docs/decisions.md "Reliability"): ingest, dashboard reads, pages, public links
// and health share one pool, and a flood of any one of them (1,000 health calls, 40 heavy summary reads) used
// to take every connection, so the others waited for their database budget and answered 503. Each
// request runs as one class (`runAs`, set by app.ts); a class may hold at most its share of
// connections at once (the shares add up to the pool), its extra queries wait at most `waitMs` for
// one of its own connections, then fail with ShareBusy (503 + Retry-After). Work outside any
// request (migrations, the daily cleanup) is not limited. A request whose database budget has
// expired (it was answered 503) is `abandon`ed: its next query fails at once instead of running for
// nobody.
import { AsyncLocalStorage } from "node:async_hooks";
import type { DatabaseConnection, Dialect, Driver, Kysely, TransactionSettings } from "kysely";

export type RequestClass = "ingest" | "dashboard" | "pages" | "links" | "health";

interface Work {
  readonly requestClass: RequestClass;
  abandoned: boolean;
  /** The turns this request holds now (one per connection it uses). */
  readonly held: Set<Held>;
}

/** One connection's turn of a class, given back once: at release, or when its request is abandoned. */
interface Held {
  readonly turns: Turns;
  given: boolean;
}

function giveBack(work: Work | undefined, held: Held): void {
  if (held.given) return;
  held.given = true;
  work?.held.delete(held);
  held.turns.give();
}

const current = new AsyncLocalStorage<Work>();

/** Runs `fn` (a request's handling) as `requestClass`: its queries use that class's share. */
export function runAs<T>(requestClass: RequestClass, fn: () => T): T {
  return current.run({ requestClass, abandoned: false, held: new Set() }, fn);
}

/** `fn` bound to the caller's request, for work that runs later (a stream's pulls). */
export function bindToRequest<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const work = current.getStore();
  return work ? (...args) => current.run(work, () => fn(...args)) : fn;
}

/** The current request was answered without its work: its later queries fail (WorkAbandoned). */
export function abandonRequestWork(): void {
  const work = current.getStore();
  if (!work) return;
  work.abandoned = true;
  // Its turns go back now: a query that hangs on a connection the database dropped (the driver may
  // never settle it) must not keep its class's share forever after the database is back.
  for (const held of [...work.held]) giveBack(work, held);
}

/** A class's connections were all busy for longer than it may wait. */
export class ShareBusy extends Error {
  readonly code = "SHARE_BUSY";
  constructor(readonly requestClass: RequestClass, waitMs: number) {
    super(`every ${requestClass} database connection stayed busy for ${waitMs} ms`);
    this.name = "ShareBusy";
  }
}

/** A query of a request that was already answered (its database budget expired). */
export class WorkAbandoned extends Error {
  readonly code = "WORK_ABANDONED";
  constructor() {
    super("the request was already answered; its remaining queries are not run");
    this.name = "WorkAbandoned";
  }
}

export type Shares = Record<RequestClass, number>;

/**
 * The shares of a pool of `poolMax` connections: ingest 40 %, dashboard API 30 %, signed-in pages
 * 10 %, public links 10 % (anyone with a link, no account: they once shared the pages' 20 %, and a
 * flood of link views held the pages of every organization), health one connection (its probe is
 * single-flight anyway). At least one each, so a pool under six connections is overbooked rather
 * than closed to a class.
 */
export function connectionShares(poolMax: number): Shares {
  const part = (fraction: number) => Math.max(1, Math.floor(poolMax * fraction));
  return { ingest: part(0.4), dashboard: part(0.3), pages: part(0.1), links: part(0.1), health: 1 };
}

/** How long a query waits for a connection of its class before ShareBusy. */
export const DEFAULT_SHARE_WAIT_MS = 2_000;

class Turns {
  #free: number;
  readonly #waiting: Array<(granted: boolean) => void> = [];
  /** The most connections the class held at once (for tests). */
  peak = 0;
  /** Queries that found every connection of the class busy and waited, and those that gave up. */
  waits = 0;
  busy = 0;
  constructor(readonly size: number) {
    this.#free = size;
  }
  get held(): number {
    return this.size - this.#free;
  }
  take(waitMs: number): Promise<boolean> {
    if (this.#free > 0) {
      this.#free--;
      this.peak = Math.max(this.peak, this.held);
      return Promise.resolve(true);
    }
    this.waits++;
    return new Promise((resolve) => {
      const grant = (granted: boolean) => {
        clearTimeout(timer);
        resolve(granted);
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(grant), 1);
        this.busy++;
        resolve(false);
      }, waitMs);
      this.#waiting.push(grant);
    });
  }
  give(): void {
    const next = this.#waiting.shift();
    if (next) {
      this.peak = Math.max(this.peak, this.held);
      next(true); // the turn passes on without becoming free
    } else this.#free++;
  }
}

export interface ShareGate {
  readonly shares: Shares;
  /**
   * Connections each class holds now, the most it held at once, and its queries so far that
   * waited for a connection and that gave up (ShareBusy: 503).
   */
  usage(): Record<RequestClass, { held: number; peak: number; waits: number; busy: number }>;
}

/** `dialect` with its connections handed out by class shares. */
export function sharedDialect(
  dialect: Dialect,
  shares: Shares,
  waitMs = DEFAULT_SHARE_WAIT_MS,
): Dialect & { gate: ShareGate } {
  const turns = Object.fromEntries(
    Object.entries(shares).map(([name, size]) => [name, new Turns(size)]),
  ) as Record<RequestClass, Turns>;
  const gate: ShareGate = {
    shares,
    usage: () =>
      Object.fromEntries(
        Object.entries(turns).map((
          [name, t],
        ) => [name, { held: t.held, peak: t.peak, waits: t.waits, busy: t.busy }]),
      ) as ReturnType<ShareGate["usage"]>,
  };
  return {
    gate,
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new SharedDriver(dialect.createDriver(), turns, waitMs),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    // deno-lint-ignore no-explicit-any
    createIntrospector: (db: Kysely<any>) => dialect.createIntrospector(db),
  };
}

class SharedDriver implements Driver {
  readonly #held = new WeakMap<DatabaseConnection, { work: Work; held: Held }>();
  constructor(
    private readonly inner: Driver,
    private readonly turns: Record<RequestClass, Turns>,
    private readonly waitMs: number,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const work = current.getStore();
    if (!work) return await this.inner.acquireConnection();
    if (work.abandoned) throw new WorkAbandoned();
    const turns = this.turns[work.requestClass];
    if (!await turns.take(this.waitMs)) throw new ShareBusy(work.requestClass, this.waitMs);
    if (work.abandoned) {
      turns.give();
      throw new WorkAbandoned();
    }
    const held: Held = { turns, given: false };
    work.held.add(held);
    try {
      const connection = await this.inner.acquireConnection();
      this.#held.set(connection, { work, held });
      return connection;
    } catch (error) {
      giveBack(work, held);
      throw error;
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const entry = this.#held.get(connection);
    this.#held.delete(connection);
    try {
      await this.inner.releaseConnection(connection);
    } finally {
      if (entry) giveBack(entry.work, entry.held);
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(connection, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction(connection);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction(connection);
  }
  destroy() {
    return this.inner.destroy();
  }
}
