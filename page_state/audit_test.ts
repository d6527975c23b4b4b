// The audit page's URL: read as the API's query, and its links read back as they were written.
import assert from "node:assert/strict";
import { auditHref, readAuditQuery } from "./audit.ts";

Deno.test("audit page URL: a link reads back as its query; an unknown action is refused", () => {
  const href = auditHref({ action: "share.revoke", cursor: "abc" });
  assert.equal(href, "/settings/organization/audit?cursor=abc&action=share.revoke");
  assert.deepEqual(readAuditQuery(new URL(href, "http://x")), {
    action: "share.revoke",
    cursor: "abc",
  });
  assert.equal(auditHref({}), "/settings/organization/audit");
  assert.deepEqual(readAuditQuery(new URL("http://x/?action=")), {});
  assert.deepEqual(readAuditQuery(new URL("http://x/?done=views-on&action=share.create")), {
    action: "share.create",
  });
  assert.throws(() => readAuditQuery(new URL("http://x/?action=share.burn")), /invalid query/);
});
