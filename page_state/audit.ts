// The audit log page's URL (/settings/organization/audit): `?action=` and `?cursor=` read as the
// API's own query (core/audit/schema.ts), and the links to a filter or the next page.
import { type AuditQuery, auditQuery } from "@/core/audit/schema.ts";
import { readQuery, withQuery, writeQuery } from "./url.ts";

export const AUDIT_PATH = "/settings/organization/audit";

/**
 * The page's query; an unknown action or a malformed cursor is a 400. Other parameters (the
 * notice's `done` after a form) are not the list's and are left out.
 */
export function readAuditQuery(url: URL): AuditQuery {
  const own = new URLSearchParams();
  for (const name of Object.keys(auditQuery.shape)) {
    for (const value of url.searchParams.getAll(name)) own.append(name, value);
  }
  return readQuery(auditQuery, own);
}

/** A link to the page with this filter and page (the first page without a cursor). */
export function auditHref(query: Partial<AuditQuery>): string {
  return withQuery(AUDIT_PATH, writeQuery(auditQuery, query, { lists: "repeat" }));
}
