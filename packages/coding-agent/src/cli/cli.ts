// Entry point of the `pi` executable (dist/cli.js), kept tiny: `pi --version`
// is answered here from the inlined version, loading nothing else. Everything
// else runs the CLI's CommonJS bundle (dist/cli-main.cjs, built from main.ts),
// compiled through a code cache kept between runs (compile-cache.ts): compiling
// pi's code is most of a short run's start-up otherwise.
import { fileURLToPath } from "node:url";
import { VERSION } from "../version.js";
import { type CliBundle, loadCliBundle } from "./compile-cache.js";

// Set by the build (scripts/build.mjs): a hash of dist/cli-main.cjs, part of the code cache's key.
// (This file only works built; tests and tools that run pi from source call main.ts.)
declare const __PI_BUNDLE_ID__: string;

// Exit explicitly once stdout has drained: idle keep-alive sockets of HTTP
// clients must not keep a finished run alive.
function exit(code: number): void {
	process.exitCode = code;
	process.stdout.write("", () => process.exit(code));
}

function fail(error: unknown): void {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	exit(1);
}

/** The bundle next to this file, loaded once the arguments ask for more than the version. */
function loadMain(): Promise<CliBundle> {
	return new Promise((resolve) =>
		resolve(loadCliBundle(fileURLToPath(new URL("./cli-main.cjs", import.meta.url)), __PI_BUNDLE_ID__)),
	);
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
	process.stdout.write(`${VERSION}\n`);
} else {
	loadMain()
		.then(({ main }) => main(argv))
		.then(exit, fail);
}
