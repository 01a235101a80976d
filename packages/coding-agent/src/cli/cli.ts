// Entry point of the `pi` executable (dist/cli.js, built as CommonJS: a CommonJS
// entry starts faster than an ES module one), kept tiny: `pi --version` is
// answered here from the inlined version, loading nothing else. Everything else
// runs the CLI's CommonJS bundle (dist/cli-main.cjs, built from main.ts),
// compiled through a code cache kept between runs (compile-cache.ts, loaded only
// then): compiling pi's code is most of a short run's start-up otherwise.
import { join } from "node:path";

// Set by the build (scripts/build.mjs): the package's version (the string alone, not the whole
// package.json object that importing version.ts would inline), and a hash of dist/cli-main.cjs,
// part of the code cache's key. (This file only works built; tests and tools that run pi from
// source call main.ts.)
declare const __PI_VERSION__: string;
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

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
	process.stdout.write(`${__PI_VERSION__}\n`);
} else {
	// (Bundled into this file, but its module body and imports run only here.)
	import("./compile-cache.js")
		.then(({ loadCliBundle }) => loadCliBundle(join(import.meta.dirname, "cli-main.cjs"), __PI_BUNDLE_ID__, argv))
		.then(({ main }) => main(argv))
		.then(exit, fail);
}
