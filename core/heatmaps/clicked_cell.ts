// A grid cell of a page's click map as the sessions list filters by it (`clickedCell=`, docs/
// decisions.md "Heatmaps"): `<band>:<x>:<y>:<path>`, e.g. `wide:12:40:/orders/:id`, the path last
// (it may hold colons). Written by the heatmaps page, read back by the sessions API and page.
import { z } from "zod";
import { type Band, BANDS } from "./schema.ts";

export interface ClickedCell {
  band: Band;
  /** 0–99: the percent of the page's width. */
  x: number;
  /** The document's px / CELL_PX. */
  y: number;
  /** As /api/heatmaps/pages lists it. */
  path: string;
}

// x 0–99 (two digits), y up to 9,999,999 (160 km of page: any recorded one)
const FORMAT = new RegExp(`^(${BANDS.join("|")}):(\\d{1,2}):(\\d{1,7}):(/.{0,1023})$`, "s");

export const clickedCellField = z.string().max(1100).regex(
  FORMAT,
  "`<band>:<x>:<y>:<path>`: a band, a cell 0–99 across and 0 or more down, a page's path",
).optional().meta({
  description: "clicked in this cell of a page's click map: `<band>:<x>:<y>:<path>` (x in % of " +
    "the page's width, y in 16 px steps, the path as /api/heatmaps/pages lists it)",
});

/** The cell of a value the field accepted. */
export function readClickedCell(value: string): ClickedCell {
  const [, band, x, y, path] = FORMAT.exec(value) ?? [];
  if (!path) throw new RangeError(`not a clicked cell: ${value}`);
  return { band: band as Band, x: Number(x), y: Number(y), path };
}

export function clickedCellValue(cell: ClickedCell): string {
  return `${cell.band}:${cell.x}:${cell.y}:${cell.path}`;
}
