// Child of temp-cleanup.test.ts (bundled once, see bundle.ts): starts an
// atomic write of <target> whose rename never returns, so the temp file is
// fully written and the write stays in flight.
//   stalled-writer <target> exit            nothing else keeps the process alive: it exits
//                                           with the write pending (13, unsettled top-level await)
//   stalled-writer <target> hold <journal>  journals its temp file in <journal>, prints
//                                           "in-write" once inside the write, and lives until killed
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { atomicWriteFile } from "../../src/tools/shared/atomic-write.js";
import { setTempFileJournal } from "../../src/tools/shared/temp-files.js";

const [target, mode, journal] = process.argv.slice(2);
if (!target || (mode !== "exit" && mode !== "hold") || (mode === "hold" && !journal)) {
	process.stderr.write("usage: stalled-writer <target> exit | <target> hold <journal>\n");
	process.exit(2);
}
if (mode === "hold") {
	setTempFileJournal(journal);
	setInterval(() => {}, 1000);
}
// atomic-write renames with node:fs's callback `rename`: replaced here by one that never calls
// back (syncBuiltinESMExports makes `import { rename } from "node:fs"` see the replacement).
(fs as { rename: unknown }).rename = () => {
	if (mode === "hold") process.stdout.write("in-write\n");
};
syncBuiltinESMExports();
await atomicWriteFile(target, "B".repeat(1024 * 1024));
