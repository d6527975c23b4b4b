// Which pages may be recorded: URL path globs (`*` any characters but `/`, `**` any characters,
// `?` one character but `/`; a trailing `/**` also matches the folder itself). A page is recorded
// when no block glob matches its path and, for each non-empty allow list, one of its globs does.

export type PathRule = (pathname: string) => boolean;

export function globPattern(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      i++;
      // `/x/**` at the end: `/x` itself too
      if (source.endsWith("/") && i === glob.length - 1) source = source.slice(0, -1) + "(/.*)?";
      else source += ".*";
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

/** The rule of a block list and of allow lists (each narrows: a page must pass all of them). */
export function pathRule(block: string[], allow: string[][]): PathRule {
  const blocked = block.map(globPattern);
  const allowed = allow.filter((list) => list.length > 0).map((list) => list.map(globPattern));
  return (pathname) =>
    !blocked.some((re) => re.test(pathname)) &&
    allowed.every((list) => list.some((re) => re.test(pathname)));
}
