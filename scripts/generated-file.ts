// The last step of a generator script (generate-models.ts, generate-line-scan.ts): write the
// generated module, or with `--check` fail (exit 1, naming the command to run) when the file on
// disk differs from what the generator makes now. Tests run each generator's --check.
import { readFileSync, writeFileSync } from "node:fs";

export function writeOrCheckGenerated(path: string, source: string, regenerate: string): void {
	if (process.argv.includes("--check")) {
		let current = "";
		try {
			current = readFileSync(path, "utf8");
		} catch {}
		if (current !== source) {
			console.error(`${path} is out of date; run: ${regenerate}`);
			process.exit(1);
		}
		return;
	}
	writeFileSync(path, source);
	console.log(`wrote ${path}`);
}
