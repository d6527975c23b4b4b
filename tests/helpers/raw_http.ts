// HTTP/1.1 over a raw TCP socket, for what fetch cannot do: send half a request and stall, then
// see what the server answers and whether it closes the connection.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface RawConnection {
  write(text: string | Uint8Array): Promise<void>;
  /** Everything the server sends until it closes (`closed`), or until `giveUpMs` passes. */
  readUntilClosed(giveUpMs: number): Promise<{ text: string; closed: boolean }>;
  close(): void;
}

export async function rawConnect(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    conn.close();
  };
  return {
    write: async (data) => {
      const bytes = typeof data === "string" ? encoder.encode(data) : data;
      for (let written = 0; written < bytes.length;) {
        written += await conn.write(bytes.subarray(written));
      }
    },
    readUntilClosed: async (giveUpMs) => {
      let text = "";
      const buffer = new Uint8Array(16 * 1024);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<"gave-up">((resolve) => {
        timer = setTimeout(() => resolve("gave-up"), giveUpMs);
      });
      try {
        for (;;) {
          const n = await Promise.race([conn.read(buffer).catch(() => null), gaveUp]);
          if (n === "gave-up") return { text, closed: false };
          if (n === null) return { text, closed: true };
          text += decoder.decode(buffer.subarray(0, n));
        }
      } finally {
        clearTimeout(timer);
        close();
      }
    },
    close,
  };
}

/** The status code of the first response in `text` (0 when there is none). */
export function statusOf(text: string): number {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
}

/** The JSON body of a (not chunked) response in `text`. */
export function jsonBodyOf(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4));
}
