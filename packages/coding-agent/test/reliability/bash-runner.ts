// Child process for the bash-tree tests: runs one command through the real
// bash tool (abort after `abortMs`, or the tool's own timeout) and prints one
// JSON line: elapsed ms, peak RSS growth, output size, error text.
// Usage: node bash-runner.mjs <cwd> <command> <timeoutSeconds|0> <abortMs|0>
import { createBashTool } from "../../src/tools/bash.js";

const [cwd, command, timeoutArg, abortArg] = process.argv.slice(2);
const timeout = Number(timeoutArg) || undefined;
const abortMs = Number(abortArg);
const baseRss = process.resourceUsage().maxRSS;
const tool = createBashTool(cwd);
const ac = new AbortController();
if (abortMs > 0) setTimeout(() => ac.abort(), abortMs);
const t0 = Date.now();
let text = "";
let error = "";
let fullOutputPath: string | undefined;
try {
	const r = await tool.execute("call-1", { command, ...(timeout ? { timeout } : {}) }, ac.signal, undefined);
	text = r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
	fullOutputPath = (r.details as { fullOutputPath?: string } | undefined)?.fullOutputPath;
} catch (e) {
	error = (e as Error).message;
}
const ms = Date.now() - t0;
const rssGrowthKb = process.resourceUsage().maxRSS - baseRss;
process.stdout.write(
	`${JSON.stringify({ ms, rssGrowthKb, textLength: text.length, tail: text.slice(-300), error, fullOutputPath })}\n`,
);
process.exit(0);
