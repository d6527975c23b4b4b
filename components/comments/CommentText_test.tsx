// A comment renders as text: markup stays text, only http(s) links become links.
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { CommentText } from "./CommentText.tsx";

Deno.test("comment text: markup is text, only http(s) addresses become links", () => {
  const text = "<img src=x onerror=alert(1)> javascript:alert(1) see http://a.test/x.";
  const html = renderToString(<CommentText text={text} />);
  assert.ok(!html.includes("<img"), html);
  assert.ok(html.includes("&lt;img src=x onerror=alert(1)>"), html);
  assert.equal(html.match(/<a /g)?.length, 1, html);
  assert.ok(html.includes('href="http://a.test/x"'), html);
  assert.ok(!html.includes('href="javascript'), html);
});
