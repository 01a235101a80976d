// Entry point of the `pi` executable. Kept tiny: `pi --version` is answered
// here from the inlined version (two small modules loaded, nothing else);
// everything else hands over to main(), which imports the heavy parts lazily
// once the arguments say what is needed.
import module from "node:module";
import { VERSION } from "../version.js";

// Exit explicitly once stdout has drained: idle keep-alive sockets of HTTP
// clients must not keep a finished run alive.
function exit(code: number): void {
	process.exitCode = code;
	process.stdout.write("", () => process.exit(code));
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
	process.stdout.write(`${VERSION}\n`);
} else {
	// Node 22.1+ keeps V8's compiled code of the modules it loads on disk (in the OS temp
	// dir, NODE_DISABLE_COMPILE_CACHE=1 turns it off), so later runs skip compiling pi's
	// chunks; everything past this file loads with import() after this line, so it is covered.
	// Node 20 has no such cache: nothing to do there.
	(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
	import("./main.js")
		.then(({ main }) => main(argv))
		.then(exit, (error: unknown) => {
			process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			exit(1);
		});
}
