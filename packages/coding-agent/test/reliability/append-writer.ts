// Child process for the kill-mid-append loop: appends entries of many kinds
// and sizes to one session file with the default durability (fsync), and
// prints `ack <id>` only after the append returned. The parent SIGKILLs it at
// random moments; every acknowledged id must then be on disk.
// Usage: node append-writer.mjs <session.jsonl> <seed>
import { writeSync } from "node:fs";
import { SessionManager } from "../../src/session/session-manager.js";

const [file, seedArg = "1"] = process.argv.slice(2);
const sm = SessionManager.open(file);
writeSync(1, "ready\n");
let seed = Number(seedArg) >>> 0 || 1;
const rnd = () => {
	seed = (seed * 1103515245 + 12345) & 0x7fffffff;
	return seed / 0x7fffffff;
};
const usage = {
	input: 1,
	output: 1,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 2,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
let lastMessage = "";
for (let n = 0; ; n++) {
	// 50 bytes to ~150 KB: large lines make a kill inside write(2) likely.
	const size = Math.floor(50 * 3_000 ** rnd());
	const body = `${n} ${"é".repeat(size >> 2)}${"x".repeat(size)}`;
	let id: string;
	const kind = n % 4;
	if (kind === 0) id = lastMessage = sm.appendMessage({ role: "user", content: body, timestamp: Date.now() });
	else if (kind === 1)
		id = lastMessage = sm.appendMessage({
			role: "assistant",
			content: [{ type: "text", text: body }],
			api: "openai-completions",
			provider: "p",
			model: "m",
			usage,
			stopReason: "stop",
			timestamp: Date.now(),
		});
	else if (kind === 2) id = sm.appendCustomEntry("reliability.note", { n, body });
	else id = sm.appendLabelChange(lastMessage, `label ${n}`);
	writeSync(1, `ack ${id}\n`);
}
