import assert from "node:assert/strict";
import { type GetOptions, guardedGet } from "./guarded_get.ts";
import { png, RED_PNG, startImageServer } from "@/tests/helpers/image_server.ts";

const options = (allowHosts: string[], more: Partial<GetOptions> = {}): GetOptions => ({
  allowHosts,
  maxBytes: 1000,
  timeoutMs: 5000,
  maxRedirects: 2,
  acceptType: (type) => type.startsWith("image/"),
  ...more,
});

Deno.test("outbound: a loopback or other private address is refused without a connection unless its host is allowed", async () => {
  await using server = startImageServer({ "/a.png": () => png() });
  const port = server.host.split(":")[1];
  for (
    const address of [
      `${server.origin}/a.png`,
      `http://localhost:${port}/a.png`,
      `http://[::ffff:127.0.0.1]:${port}/a.png`,
      `http://[::1]:${port}/a.png`,
      `http://2130706433:${port}/a.png`,
    ]
  ) {
    const outcome = await guardedGet(address, options([]));
    assert.equal(outcome.ok, false, address);
    assert.equal(!outcome.ok && outcome.reason, "private", address);
  }
  // Another port of the same host is another host.
  const other = await guardedGet(
    `${server.origin}/a.png`,
    options([`127.0.0.1:${Number(port) + 1}`]),
  );
  assert.equal(!other.ok && other.reason, "private");
  assert.deepEqual(server.seen, []);

  const allowed = await guardedGet(`${server.origin}/a.png`, options([server.host]));
  assert.ok(allowed.ok);
  assert.equal(allowed.type, "image/png");
  assert.deepEqual(allowed.bytes, RED_PNG);
  assert.deepEqual(server.seen, ["/a.png"]);
});

Deno.test("outbound: a redirect is checked again: from an allowed host to a private one it is refused, unconnected", async () => {
  await using inner = startImageServer({ "/b.png": () => png() });
  await using outer = startImageServer({
    "/to-inner": () => Response.redirect(`${inner.origin}/b.png`, 302),
    "/to-localhost": () => Response.redirect(`http://localhost:${inner.host.split(":")[1]}/b.png`),
    "/to-self": () => Response.redirect(`${outer.origin}/a.png`, 307),
    "/a.png": () => png(),
    "/loop": () => Response.redirect(`${outer.origin}/loop`, 301),
  });
  for (const path of ["/to-inner", "/to-localhost"]) {
    const outcome = await guardedGet(`${outer.origin}${path}`, options([outer.host]));
    assert.equal(!outcome.ok && outcome.reason, "private", path);
    assert.match(!outcome.ok ? outcome.detail : "", /^redirected: /);
  }
  assert.deepEqual(inner.seen, []);
  const self = await guardedGet(`${outer.origin}/to-self`, options([outer.host]));
  assert.ok(self.ok && self.url === `${outer.origin}/a.png`);
  // Two redirects are followed, a third is not.
  const loop = await guardedGet(`${outer.origin}/loop`, options([outer.host]));
  assert.deepEqual(loop, { ok: false, reason: "failed", detail: "too many redirects" });
  assert.equal(outer.seen.filter((path) => path === "/loop").length, 3);
  // Both hosts allowed: followed.
  const both = await guardedGet(`${outer.origin}/to-inner`, options([outer.host, inner.host]));
  assert.ok(both.ok);
  assert.deepEqual(inner.seen, ["/b.png"]);
});

Deno.test("outbound: a body of maxBytes is read, one byte more is refused, with or without its length", async () => {
  const bytes = (n: number) => new Uint8Array(n).fill(7);
  const streamed = (n: number) =>
    new Response(new Blob([bytes(n)]).stream(), { headers: { "content-type": "image/png" } });
  await using server = startImageServer({
    "/999": () => png(bytes(999)),
    "/1000": () => png(bytes(1000)),
    "/1001": () => png(bytes(1001)),
    "/streamed-1000": () => streamed(1000),
    "/streamed-1001": () => streamed(1001),
  });
  const get = (path: string) => guardedGet(`${server.origin}${path}`, options([server.host]));
  for (const path of ["/999", "/1000", "/streamed-1000"]) {
    const outcome = await get(path);
    assert.ok(outcome.ok, path);
    assert.equal(outcome.bytes.length, Number(path.replace(/\D/g, "")), path);
  }
  for (const path of ["/1001", "/streamed-1001"]) {
    assert.equal((await get(path) as { reason?: string }).reason, "too_large", path);
  }
});

Deno.test("outbound: a refused type, an error status, a non-http address and an answer that never comes are each refused", async () => {
  await using server = startImageServer({
    "/page": () => new Response("<p>hi</p>", { headers: { "content-type": "text/html" } }),
    "/gone": () => new Response("no", { status: 404 }),
    "/gzip": () =>
      new Response("x", { headers: { "content-type": "image/png", "content-encoding": "gzip" } }),
    "/never": () => server.closed.then(() => png()),
  });
  const get = (path: string, more: Partial<GetOptions> = {}) =>
    guardedGet(`${server.origin}${path}`, options([server.host], more));
  assert.deepEqual(await get("/page"), { ok: false, reason: "type", detail: "text/html" });
  assert.deepEqual(await get("/gone"), { ok: false, reason: "failed", detail: "HTTP 404" });
  assert.deepEqual(await get("/gzip"), {
    ok: false,
    reason: "failed",
    detail: "a compressed answer",
  });
  assert.deepEqual(await get("/never", { timeoutMs: 200 }), {
    ok: false,
    reason: "failed",
    detail: "timed out",
  });
  for (const address of ["blob:https://shop.example.com/1d2c", "ftp://files.example.com/a.png"]) {
    const outcome = await guardedGet(address, options([]));
    assert.equal(!outcome.ok && outcome.reason, "unsupported", address);
  }
});
