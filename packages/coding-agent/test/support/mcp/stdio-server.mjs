// Runs the fixture server on stdio. Options: JSON in argv[2] (see fixture-server.mjs), plus the
// start-up ones below (pidFile, stderr, exitAtStart, exitUnlessFile, waitForFile, garbage).
// The pid file is written before the SDK loads, so a test can tell the process started.
import { existsSync, writeFileSync } from "node:fs";

const options = JSON.parse(process.argv[2] ?? "{}");
if (options.pidFile) writeFileSync(options.pidFile, String(process.pid));
if (options.stderr) process.stderr.write(`${options.stderr}\n`);
if (options.exitAtStart) {
	process.stderr.write("fixture: refusing to start\n");
	process.exit(7);
}
// exitUnlessFile: fails at start (exit 7) until the file exists — a server that comes back later.
if (options.exitUnlessFile && !existsSync(options.exitUnlessFile)) {
	process.stderr.write("fixture: not yet\n");
	process.exit(7);
}
// waitForFile: answers nothing (the client sees it connecting) until the file exists.
while (options.waitForFile && !existsSync(options.waitForFile)) await new Promise((r) => setTimeout(r, 50));
if (options.garbage) process.stdout.write("this is not json-rpc\n");
const [{ StdioServerTransport }, { buildServer }] = await Promise.all([
	import("@modelcontextprotocol/sdk/server/stdio.js"),
	import("./fixture-server.mjs"),
]);
await buildServer(options).connect(new StdioServerTransport());
