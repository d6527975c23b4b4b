// The repository's files as a source archive holds them: the tree walked from the root, less what
// .gitignore excludes (builds, node_modules, local data), so no test needs a git checkout.
import ignore from "ignore";

const ROOT = new URL("../../", import.meta.url);

/** Whether a repository path (a folder ends in `/`) is git-ignored, by the root .gitignore. */
export async function gitIgnored(): Promise<(path: string) => boolean> {
  const rules = ignore().add(await Deno.readTextFile(new URL(".gitignore", ROOT))).add(".git");
  return (path) => rules.ignores(path);
}

/** Every file path (relative, `/`-separated) that is not git-ignored, sorted. */
export async function sourceFiles(): Promise<string[]> {
  const ignored = await gitIgnored();
  const files: string[] = [];
  const pending = [""];
  while (pending.length) {
    const dir = pending.pop()!;
    for await (const entry of Deno.readDir(new URL(dir || ".", ROOT))) {
      const path = dir + entry.name;
      if (entry.isDirectory) {
        if (!ignored(`${path}/`)) pending.push(`${path}/`);
      } else if (!ignored(path)) files.push(path);
    }
  }
  return files.sort();
}
