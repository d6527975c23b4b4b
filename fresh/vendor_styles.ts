// Stylesheets shipped inside npm packages that pages link (an island's chart library, say): copied
// from node_modules into the build folder at build time, served under /build/vendor/.
import { join } from "node:path";

/** Build-folder name → file inside the project's node_modules. */
export type VendorStyles = Record<string, string>;

export async function copyVendorStyles(rootDir: string, buildDir: string, styles: VendorStyles) {
  await Deno.mkdir(join(buildDir, "vendor"), { recursive: true });
  for (const [name, from] of Object.entries(styles)) {
    await Deno.copyFile(join(rootDir, "node_modules", from), join(buildDir, "vendor", name));
  }
}
