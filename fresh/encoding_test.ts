import assert from "node:assert/strict";
import { acceptedEncoding, etagMatches, variantEtag } from "./encoding.ts";

Deno.test("encoding: brotli is preferred, q-values and refusals are honoured", () => {
  assert.equal(acceptedEncoding("gzip, deflate, br, zstd"), "br");
  assert.equal(acceptedEncoding("gzip"), "gzip");
  assert.equal(acceptedEncoding("GZIP, Deflate"), "gzip");
  assert.equal(acceptedEncoding("br;q=0, gzip"), "gzip");
  assert.equal(acceptedEncoding("br;q=0.5, gzip;q=0.8"), "gzip");
  assert.equal(acceptedEncoding("*"), "br");
  assert.equal(acceptedEncoding("identity"), null);
  assert.equal(acceptedEncoding(""), null);
  assert.equal(acceptedEncoding(undefined), null);
  assert.equal(acceptedEncoding("br, gzip", ["gzip"]), "gzip");
});

Deno.test("encoding: variant ETags differ per coding and match weakly", () => {
  assert.equal(variantEtag('"playhead-ABC"', "br"), '"playhead-ABC-br"');
  assert.equal(variantEtag('W/"1a-2b"', "gzip"), 'W/"1a-2b-gzip"');
  assert.equal(variantEtag('W/"1a-2b"', null), 'W/"1a-2b"');
  assert.ok(etagMatches('"x", W/"1a-2b-br"', 'W/"1a-2b-br"'));
  assert.ok(etagMatches('"1a-2b-br"', 'W/"1a-2b-br"'));
  assert.ok(etagMatches("*", '"a"'));
  assert.ok(!etagMatches('W/"1a-2b"', 'W/"1a-2b-br"'));
  assert.ok(!etagMatches(null, '"a"'));
});
