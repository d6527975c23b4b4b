// A request's endpoint as insights group failures: the method and the path with its ids folded
// (`GET /api/orders/:id`), so every order's failure counts as one endpoint's.

/** A path segment that names one thing: a number, a UUID, a long hex or mixed id, an email. */
const ID_SEGMENT =
  /^(\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{12,}|(?=[a-z_-]*\d)[a-z0-9_-]{16,}|[^@/]+@[^@/]+)$/i;

/** A JSON Web Token: a JWS's three parts or a JWE's five, its header `{"…` in base64url. */
const JWT_SEGMENT = /^eyJ[\w-]*(\.[\w-]*){2,4}$/;
/** Longer than this, a segment is a token or a slug, not the name of a route. */
const NAME_CHARS = 64;

const isId = (segment: string) =>
  segment.length > NAME_CHARS || ID_SEGMENT.test(segment) || JWT_SEGMENT.test(segment);

export function foldedPath(pathname: string): string {
  return pathname.split("/").map((segment) => isId(segment) ? ":id" : segment).join("/") || "/";
}

/** `METHOD /path/:id` of a recorded address (absolute, or a path). */
export function endpointOf(method: string, address: string): string {
  let pathname: string;
  try {
    pathname = new URL(address, "http://x").pathname;
  } catch {
    pathname = address.split(/[?#]/)[0];
  }
  return `${method.toUpperCase()} ${foldedPath(pathname)}`;
}
