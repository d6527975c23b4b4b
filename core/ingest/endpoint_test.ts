import assert from "node:assert/strict";
import { endpointOf, foldedPath } from "./endpoint.ts";

Deno.test("endpoint: ids in a path are folded, names are kept", () => {
  assert.equal(foldedPath("/api/orders/42"), "/api/orders/:id");
  assert.equal(foldedPath("/api/orders/42/items/7"), "/api/orders/:id/items/:id");
  assert.equal(foldedPath("/u/123e4567-e89b-12d3-a456-426614174000"), "/u/:id");
  assert.equal(foldedPath("/blobs/5f2b9c0e7d1a"), "/blobs/:id");
  assert.equal(foldedPath("/c/ckx8a9b0c0000d1e2f3g4h5i6"), "/c/:id");
  assert.equal(foldedPath("/users/a@b.example"), "/users/:id");
  assert.equal(foldedPath("/api/v2/orders"), "/api/v2/orders");
  assert.equal(foldedPath("/api/login"), "/api/login");
  assert.equal(foldedPath("/api/customer-preferences"), "/api/customer-preferences");
});

Deno.test("endpoint: the method and the folded path of an address, without its query", () => {
  assert.equal(endpointOf("get", "https://a.example/api/orders/9?x=1"), "GET /api/orders/:id");
  assert.equal(endpointOf("POST", "/api/login"), "POST /api/login");
});

Deno.test("endpoint: a JWT or a segment longer than a route's name is folded", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLWJ5dGVz";
  assert.equal(foldedPath(`/v1/files/${jwt}/download`), "/v1/files/:id/download");
  assert.equal(foldedPath(`/jwe/${jwt}.aXY.dGFn`), "/jwe/:id");
  assert.equal(foldedPath(`/blog/${"a-slug-of-many-words".repeat(4)}`), "/blog/:id");
  assert.equal(foldedPath("/assets/app.min.js"), "/assets/app.min.js");
  assert.equal(foldedPath(`/api/${"x".repeat(64)}`), `/api/${"x".repeat(64)}`);
});
