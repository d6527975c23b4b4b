// A recorded canvas's picture for the server's frame: rrweb's sampled canvas recording (`recordCanvas`
// with a frame rate) draws each frame as one image over the whole canvas; its last one, as a data:
// URL, is shown as the canvas's background. Any other drawing is left out, as in the first frame.

interface Command {
  property?: unknown;
  args?: unknown[];
}

interface Serialized {
  rr_type?: string;
  args?: Serialized[];
  data?: Serialized[];
  base64?: string;
  type?: string;
}

const IMAGE_TYPE = /^image\/(png|jpeg|webp|gif)$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The data: URL of the image a canvas mutation draws over the whole canvas, or null. */
export function canvasPicture(data: { commands?: Command[] }): string | null {
  const commands = Array.isArray(data.commands) ? data.commands : [];
  const draw = commands.findLast((c) => c?.property === "drawImage");
  if (!draw || !Array.isArray(draw.args) || draw.args[1] !== 0 || draw.args[2] !== 0) return null;
  const bitmap = draw.args[0] as Serialized | undefined;
  const blob = bitmap?.rr_type === "ImageBitmap" ? bitmap.args?.[0] : undefined;
  if (blob?.rr_type !== "Blob" || blob.data?.length !== 1) return null;
  const buffer = blob.data[0];
  const type = String(blob.type ?? "");
  if (buffer?.rr_type !== "ArrayBuffer" || typeof buffer.base64 !== "string") return null;
  if (!IMAGE_TYPE.test(type) || !BASE64.test(buffer.base64)) return null;
  return `data:${type};base64,${buffer.base64}`;
}
