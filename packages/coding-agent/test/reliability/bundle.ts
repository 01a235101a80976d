// The helper scripts of this folder, bundled to plain JS for the children tests spawn.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleTestScript } from "../support/bundle-script.js";

const here = dirname(fileURLToPath(import.meta.url));

export function bundledScript(name: string): string {
	return bundleTestScript(join(here, `${name}.ts`), { withRequire: true });
}
