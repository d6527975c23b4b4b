// The alerts' outbound guard (docs/decisions.md "Alerts"): https only and public addresses only,
// unless private targets are allowed; a refused target is never connected to.
import assert from "node:assert/strict";
import { checkTarget, guardedPost } from "./guarded_post.ts";

Deno.test("guarded POST: http:, private, loopback, link-local and local names refused", async () => {
  for (
    const address of [
      "http://93.184.215.14/hook",
      "https://127.0.0.1/hook",
      "https://10.1.2.3/",
      "https://172.16.0.1/",
      "https://192.168.1.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/",
      "https://[fd00::1]/",
      "https://[::ffff:127.0.0.1]/",
      "https://localhost/",
      "https://hooks.internal/",
      "https://user:pass@93.184.215.14/",
      "ftp://93.184.215.14/",
      "not a url",
    ]
  ) {
    assert.equal((await checkTarget(address, false)).ok, false, address);
  }
  assert.equal((await checkTarget("https://93.184.215.14/hook", false)).ok, true);
  assert.equal((await checkTarget("http://127.0.0.1:9/hook", true)).ok, true);
  assert.equal((await checkTarget("ftp://127.0.0.1/", true)).ok, false);
});

Deno.test("guarded POST: a refused address is not connected to; an allowed one is", async () => {
  let hits = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    hits++;
    return new Response(null, { status: 204 });
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/hook`;
    const options = { timeoutMs: 5000, headers: {} };
    const refused = await guardedPost(url, "{}", { ...options, allowPrivate: false });
    assert.equal(refused.ok, false);
    assert.equal(hits, 0);
    assert.deepEqual(await guardedPost(url, "{}", { ...options, allowPrivate: true }), {
      ok: true,
      status: 204,
    });
    assert.equal(hits, 1);
  } finally {
    await server.shutdown();
  }
});
