import assert from "node:assert/strict";
import { fixture } from "./testdata/helpers.ts";

const HTML = "text/html; charset=utf-8";

Deno.test("pages: the index route renders inside the root layout and _app", async () => {
  await using app = await fixture();
  const res = await app.get("/");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), HTML);
  const html = await res.text();
  assert.match(html, /^<!DOCTYPE html><html lang="en"><head>/);
  assert.match(html, /<div id="app"><main data-layout="root"><p id="home">/);
  assert.match(html, /Home, trail root, deps fake/);
});

Deno.test("pages: a page without islands ships no script", async () => {
  await using app = await fixture();
  const html = await (await app.get("/")).text();
  assert.doesNotMatch(html, /<script/);
  assert.doesNotMatch(html, /modulepreload/);
});

Deno.test("pages: [param] routes get decoded params and static siblings win", async () => {
  await using app = await fixture();
  const res = await app.get("/greet/J%C3%BCrgen");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-greet"), "1");
  const html = await res.text();
  assert.match(html, /data-route="\/greet\/:name" data-name="Jürgen">Hello, Jürgen!</);
  assert.match(await (await app.get("/greet/world")).text(), /id="greet-world"/);
  assert.match(await (await app.get("/greet")).text(), /id="greet-index"/);
});

Deno.test("pages: [...rest] matches any depth, including none", async () => {
  await using app = await fixture();
  assert.match(await (await app.get("/docs/a/b/c")).text(), /rest=a\/b\/c/);
  assert.match(await (await app.get("/docs")).text(), /rest=</);
});

Deno.test("pages: a (group) folder adds its layout but no URL segment", async () => {
  await using app = await fixture();
  const res = await app.get("/about");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /<main data-layout="root"><div data-layout="marketing"><p id="about">/);
  assert.equal((await app.get("/(marketing)/about")).status, 404);
});

Deno.test("pages: nested layouts wrap least specific first", async () => {
  await using app = await fixture();
  const html = await (await app.get("/admin/settings/profile")).text();
  assert.match(html, /<main data-layout="root"><div data-layout="admin"><p id="tab">tab=profile/);
});

Deno.test("pages: skipAppWrapper and skipInheritedLayouts render the bare page", async () => {
  await using app = await fixture();
  const html = await (await app.get("/bare")).text();
  assert.equal(
    html,
    '<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" ' +
      'content="width=device-width, initial-scale=1"></head><body><p id="bare">No app, no layouts' +
      "</p></body></html>",
  );
});

Deno.test("pages: <Head> children land in the document head", async () => {
  await using app = await fixture();
  const html = await (await app.get("/about")).text();
  assert.match(
    html,
    /<title>About<\/title><meta name="description" content="About the fixture"\/?><\/head>/,
  );
  assert.doesNotMatch(html, /<title>Fixture/, "the page title replaces the _app title");
});

Deno.test("pages: async route components are awaited", async () => {
  await using app = await fixture();
  assert.match(await (await app.get("/async?v=42")).text(), /<p id="async">async 42<\/p>/);
});

Deno.test("middleware: runs least specific first and passes state down", async () => {
  await using app = await fixture();
  const res = await app.get("/admin/settings/keys");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-root-middleware"), "after");
  assert.match(await res.text(), /trail=root>admin>admin2</);
});

Deno.test("middleware: a middleware can answer without calling ctx.next()", async () => {
  await using app = await fixture();
  const stopped = await app.get("/admin/settings/keys?stop");
  assert.equal(await stopped.text(), "stopped by root");
  const denied = await app.get("/admin/settings/keys", { headers: { "x-deny": "1" } });
  assert.equal(denied.status, 403);
  assert.equal(await denied.text(), "denied");
});

Deno.test("middleware: the root middleware also runs for unknown URLs", async () => {
  await using app = await fixture();
  const res = await app.get("/nowhere?stop");
  assert.equal(await res.text(), "stopped by root");
});

Deno.test("handlers: ctx.render passes data to the page", async () => {
  await using app = await fixture();
  assert.match(await (await app.get("/greet/Ada")).text(), />Hello, Ada!</);
});

Deno.test("handlers: POST runs the POST handler (post/redirect/get)", async () => {
  await using app = await fixture();
  const res = await app.get("/greet/Ada", { method: "POST" });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/greet/Ada");
});

Deno.test("handlers: a function handler answers every method", async () => {
  await using app = await fixture();
  assert.equal(await (await app.get("/whole", { method: "DELETE" })).text(), "whole DELETE");
});

Deno.test("handlers: a method without a handler answers 405 with Allow", async () => {
  await using app = await fixture();
  const res = await app.get("/form", { method: "POST" });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get("allow"), "GET, HEAD");
  const get = await app.get("/post-only");
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
});

Deno.test("handlers: HEAD answers like GET without a body", async () => {
  await using app = await fixture();
  const res = await app.get("/greet/Ada", { method: "HEAD" });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), HTML);
  assert.equal(await res.text(), "");
});

Deno.test("404: an unknown URL renders _404 inside _app with status 404", async () => {
  await using app = await fixture();
  const res = await app.get("/missing/page");
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("content-type"), HTML);
  assert.match(await res.text(), /<div id="app"><main data-layout="root"><h1>Not found: \/missing/);
});

Deno.test("404: ctx.renderNotFound renders _404 with data", async () => {
  await using app = await fixture();
  const res = await app.get("/greet/nobody");
  assert.equal(res.status, 404);
  assert.match(await res.text(), /<h1>Not found: nobody<\/h1>/);
});

Deno.test("500: a throwing handler renders _500 and reports the error", async () => {
  await using app = await fixture();
  const res = await app.get("/boom");
  assert.equal(res.status, 500);
  assert.equal(res.headers.get("content-type"), HTML);
  assert.match(await res.text(), /<h1>Server error: handler exploded<\/h1>/);
  assert.equal(app.errors.length, 1);
});

Deno.test("500: _500's handler may answer with another status, and that is not reported", async () => {
  await using app = await fixture();
  const res = await app.get("/boom?busy");
  assert.equal(res.status, 503);
  assert.equal(res.headers.get("retry-after"), "5");
  assert.equal(res.headers.get("content-type"), HTML);
  assert.match(await res.text(), /<main data-layout="root"><h1>Busy, try again<\/h1>/);
  assert.equal(app.errors.length, 0);
});

Deno.test("basePath: routes answer under the mount path only", async () => {
  await using app = await fixture({ basePath: "/app" });
  assert.equal((await app.get("/app/greet/Ada")).status, 200);
  assert.equal((await app.get("/greet/Ada")).status, 404);
});
