// A recorded page with images for the export's image tests: its Meta and full snapshot name each
// given address where a browser loads an image (an `<img>`'s `src`, a `srcset`, a CSS `url()` in a
// style attribute and in a `<style>`, a font's `url()` that is no image), and later its first
// image's `src` changes (an attribute mutation, which names the element by id only).
import type { TestEvent } from "./ingest.ts";
import { T0 } from "./times.ts";

const element = (
  id: number,
  tagName: string,
  attributes: Record<string, string>,
  childNodes: unknown[] = [],
) => ({ type: 2, id, tagName, attributes, childNodes });

export interface GalleryImages {
  /** The page's own address (relative addresses resolve against it). */
  page: string;
  /** Each an `<img alt="img-<i>">` with this `src`. */
  imgs: string[];
  /** An `<img alt="srcset">`'s `srcset`. */
  srcset?: string;
  /** A `<div class="hero">`'s `style="background-image: url(…)"`. */
  background?: string;
  /** A `<style>` with this `@font-face` source (no image) and a `.band` background. */
  font?: string;
  band?: string;
  /** What the first `<img>`'s `src` becomes at 1 s. */
  later?: string;
}

/** The gallery page's events: Meta and snapshot at 0, the `src` change at 1 s, a move at 2 s. */
export function galleryEvents(images: GalleryImages, start = T0): TestEvent[] {
  let id = 100;
  const imgs = images.imgs.map((src, i) => element(id++, "img", { alt: `img-${i}`, src }));
  const css = [
    images.font ? `@font-face{font-family:F;src:url("${images.font}") format("woff")}` : "",
    images.band ? `.band{height:10px;background-image:url(${images.band})}` : "",
  ].join("");
  const body = [
    element(10, "h1", {}, [{ type: 3, id: 11, textContent: "Gallery page" }]),
    ...imgs,
    ...(images.srcset ? [element(20, "img", { alt: "srcset", srcset: images.srcset })] : []),
    ...(images.background
      ? [element(21, "div", {
        class: "hero",
        style: `width: 10px; height: 10px; background-image: url("${images.background}")`,
      })]
      : []),
    element(22, "div", { class: "band" }),
  ];
  const snapshot = {
    node: {
      type: 0,
      id: 1,
      childNodes: [
        element(2, "html", {}, [
          element(3, "head", {}, [
            element(4, "style", {}, [{ type: 3, id: 5, textContent: css, isStyle: true }]),
          ]),
          element(6, "body", {}, body),
        ]),
      ],
    },
    initialOffset: { left: 0, top: 0 },
  };
  const events: TestEvent[] = [
    { type: 4, data: { href: images.page, width: 1280, height: 800 }, timestamp: start },
    { type: 2, data: snapshot, timestamp: start + 1 },
  ];
  if (images.later) {
    events.push({
      type: 3,
      data: {
        source: 0,
        texts: [],
        removes: [],
        adds: [],
        attributes: [{ id: imgs[0].id, attributes: { src: images.later } }],
      },
      timestamp: start + 1000,
    });
  }
  events.push({
    type: 3,
    data: { source: 1, positions: [{ x: 5, y: 5, id: 6, timeOffset: 0 }] },
    timestamp: start + 2000,
  });
  return events;
}
