// A recording's clicks and scrolls as a heatmap reads them (docs/decisions.md "Heatmaps"): each
// page view (a Meta, a `service:url`, a viewport resize) with its viewport and the deepest point
// shown; each click with its element's selector (./selector.ts, the SDK's signal rules applied to
// the recorded tree), its place in the document (the viewport's click point plus the window's
// scroll) and the view it happened in; the SDK's rage and dead click signals, to mark their
// clicks. Fed a session's events in replay order; nothing here knows bands, paths or days (core's).
import { EventType, IncrementalSource, MouseInteractions } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import { SERVICE_TAG_PREFIX } from "@/recording/events.ts";
import { DomModel, type ModelNode, TooManyNodes } from "./dom_model.ts";
import { clickTarget, modelSelector } from "./selector.ts";

export interface PageView {
  ts: number;
  href: string;
  width: number;
  height: number;
  /** A resize starts a view of its own (its band may differ) that is no new view of the page. */
  resized: boolean;
  /** The deepest document px shown: the window's scroll top plus the viewport's height. */
  depthPx: number;
}

export interface PageClick {
  ts: number;
  /** Index in `views`. */
  view: number;
  selector: string;
  /** The click point in the viewport, as recorded (the signals' x and y are the same). */
  clientX: number;
  clientY: number;
  /** In the document: the point plus the window's scroll. */
  docX: number;
  docY: number;
}

export interface ClickSignal {
  kind: "rage" | "dead";
  at: number;
  x: number;
  y: number;
}

/** A page past this many nodes is left out (its clicks are not read): the frames' own bound. */
export const MAX_MODEL_NODES = 100_000;

const RAGE_TAG = `${SERVICE_TAG_PREFIX}rage_click`;
const DEAD_TAG = `${SERVICE_TAG_PREFIX}dead_click`;
const URL_TAG = `${SERVICE_TAG_PREFIX}url`;

type Data = Record<string, unknown>;
const num = (value: unknown, or = 0) =>
  typeof value === "number" && Number.isFinite(value) ? value : or;

export class PageClicks {
  readonly views: PageView[] = [];
  readonly clicks: PageClick[] = [];
  readonly signals: ClickSignal[] = [];
  #model: DomModel | null = null;
  #href = "";
  #width = 0;
  #height = 0;
  #scrollX = 0;
  #scrollY = 0;

  push(event: RecordedEvent) {
    const data = (event.data ?? {}) as Data;
    if (event.type === EventType.Meta) this.#meta(event.timestamp, data);
    else if (event.type === EventType.FullSnapshot) this.#snapshot(data);
    else if (event.type === EventType.IncrementalSnapshot) this.#incremental(event.timestamp, data);
    else if (event.type === EventType.Custom) this.#custom(event.timestamp, data);
  }

  /**
   * A Meta of the address the last view shows continues it: the Meta of a load a `service:url`
   * announced, a new snapshot of the same page (or its reload); at another size it is a resize.
   */
  #meta(ts: number, data: Data) {
    const href = typeof data.href === "string" ? data.href : "";
    const width = num(data.width), height = num(data.height);
    const last = this.views.at(-1);
    const same = last?.href === href;
    this.#href = href;
    this.#model = null;
    this.#scrollX = this.#scrollY = 0;
    if (same && width === this.#width && height === this.#height) return;
    this.#width = width;
    this.#height = height;
    this.#view(ts, same);
  }

  #view(ts: number, resized: boolean) {
    this.views.push({
      ts,
      href: this.#href,
      width: this.#width,
      height: this.#height,
      resized,
      depthPx: Math.round(this.#scrollY + this.#height),
    });
  }

  #snapshot(data: Data) {
    const offset = (data.initialOffset ?? {}) as Data;
    this.#scrollX = num(offset.left);
    this.#scrollY = num(offset.top);
    this.#deepen();
    try {
      this.#model = new DomModel(data.node as ModelNode, MAX_MODEL_NODES);
    } catch (error) {
      if (!(error instanceof TooManyNodes)) throw error;
      this.#model = null;
    }
  }

  #deepen() {
    const view = this.views.at(-1);
    if (view) view.depthPx = Math.max(view.depthPx, Math.round(this.#scrollY + this.#height));
  }

  #incremental(ts: number, data: Data) {
    const model = this.#model;
    switch (data.source) {
      case IncrementalSource.Mutation:
        model?.mutation(data);
        return;
      case IncrementalSource.ViewportResize:
        this.#width = num(data.width, this.#width);
        this.#height = num(data.height, this.#height);
        if (this.views.length) this.#view(ts, true);
        return;
      case IncrementalSource.Scroll:
        // The window's scroll is recorded on the document node (the snapshot's root).
        if (!model || data.id !== model.root.id) return;
        this.#scrollX = num(data.x);
        this.#scrollY = num(data.y);
        this.#deepen();
        return;
      case IncrementalSource.MouseInteraction:
        if (data.type === MouseInteractions.Click && model) this.#click(ts, model, data);
        return;
    }
  }

  #click(ts: number, model: DomModel, data: Data) {
    if (!this.views.length || typeof data.id !== "number") return;
    const target = clickTarget(model, data.id);
    if (!target) return;
    const clientX = num(data.x), clientY = num(data.y);
    this.clicks.push({
      ts,
      view: this.views.length - 1,
      selector: modelSelector(model, target),
      clientX,
      clientY,
      docX: clientX + this.#scrollX,
      docY: clientY + this.#scrollY,
    });
  }

  #custom(ts: number, data: Data) {
    const payload = (data.payload ?? {}) as Data;
    if (data.tag === URL_TAG && typeof payload.url === "string" && payload.url !== this.#href) {
      this.#href = payload.url;
      this.#view(ts, false);
    } else if (data.tag === RAGE_TAG || data.tag === DEAD_TAG) {
      this.signals.push({
        kind: data.tag === RAGE_TAG ? "rage" : "dead",
        at: num(payload.at, ts),
        x: num(payload.x),
        y: num(payload.y),
      });
    }
  }
}
