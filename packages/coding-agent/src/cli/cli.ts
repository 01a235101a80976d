// Entry point of the `pi` executable (dist/cli.js, built as CommonJS: a CommonJS
// entry starts faster than an ES module one), kept tiny: `pi --version` is
// answered here from the inlined version, loading nothing else. Everything else
// runs the CLI's CommonJS bundle (dist/cli-main.cjs, built from main.ts),
// compiled through a code cache kept between runs (compile-cache.ts, loaded only
// then): compiling pi's code is most of a short run's start-up otherwise.
import { writeSync } from "node:fs";
import { join } from "node:path";
import type * as EarlyFrameModule from "./early-frame.js";

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
	writeVersion(`${__PI_VERSION__}\n`);
} else {
	// (Bundled into this file, but its module body and imports run only here.)
	import("./compile-cache.js")
		.then(async ({ appStartCacheDir, loadCliBundle }) => {
			// An app start puts its last first frame on the screen before the bundle loads (early-frame.ts,
			// a file of its own: --version compiles none of it).
			const dir = appStartCacheDir(argv);
			if (dir !== undefined) {
				const early: typeof EarlyFrameModule = require(join(import.meta.dirname, "cli-early-frame.cjs"));
				early.paintEarlyFrame(argv, __PI_BUNDLE_ID__, dir);
			}
			return loadCliBundle(join(import.meta.dirname, "cli-main.cjs"), __PI_BUNDLE_ID__, argv);
		})
		.then(({ main }) => main(argv))
		.then(exit, fail);
}

/**
 * `pi --version` writes to descriptor 1 directly: making process.stdout (for a pipe, Node's net
 * and stream modules) costs more than the rest of the answer, ~3 ms, and would put it above
 * `node -e 0` (issue 25). A descriptor set non-blocking by whoever reads it can refuse (EAGAIN):
 * then through the stream, as before; a closed reader (EPIPE) is exit code 1, without a trace.
 */
function writeVersion(text: string): void {
	try {
		writeSync(1, text);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EAGAIN") process.stdout.write(text);
		else process.exitCode = 1;
	}
}
