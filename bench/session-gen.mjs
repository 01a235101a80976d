// Generates a large version-3 session file (the format both the reference
// 0.73.1 and our store read) for the session benchmarks. Deterministic: the
// same arguments give the same bytes.
//
//   node bench/session-gen.mjs <out.jsonl> [entries=100000] [toolResultBytes=1600]
import { closeSync, openSync, writeSync } from "node:fs";

export function generateSession(path, entryCount = 100_000, toolResultBytes = 1600) {
	let seed = 42;
	const rand = () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		return seed / 0x7fffffff;
	};
	const hex = (n) => n.toString(16).padStart(8, "0");
	const words = "the quick brown fox jumps over lazy dog while reading files and running commands in the project".split(
		" ",
	);
	const text = (len) => {
		let s = "";
		while (s.length < len) s += `${words[Math.floor(rand() * words.length)]} `;
		return s.slice(0, len);
	};
	const fd = openSync(path, "w");
	let buf = [];
	let bufLen = 0;
	const emit = (obj) => {
		const line = `${JSON.stringify(obj)}\n`;
		buf.push(line);
		bufLen += line.length;
		if (bufLen > 1 << 20) {
			writeSync(fd, buf.join(""));
			buf = [];
			bufLen = 0;
		}
	};
	const t0 = Date.UTC(2026, 0, 1);
	emit({
		type: "session",
		version: 3,
		id: "0190a000-0000-7000-8000-000000000001",
		timestamp: new Date(t0).toISOString(),
		cwd: "/tmp/bench-project",
	});
	let n = 0;
	let leaf = null;
	const path_ = []; // ids on the current branch, for branching and compaction targets
	const usage = {
		input: 1200,
		output: 80,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 1280,
		cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 },
	};
	const add = (fields) => {
		const id = hex(n + 1);
		const ts = new Date(t0 + n * 1000).toISOString();
		const { type, ...rest } = fields;
		emit({ type, id, parentId: leaf, timestamp: ts, ...rest });
		leaf = id;
		path_.push(id);
		n++;
		return id;
	};
	add({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
	add({ type: "thinking_level_change", thinkingLevel: "off" });
	let turn = 0;
	while (n < entryCount) {
		const ms = t0 + n * 1000;
		if (turn > 0 && turn % 2000 === 0) {
			// A compaction keeping the last ~30 entries.
			const kept = path_[Math.max(0, path_.length - 30)];
			add({
				type: "compaction",
				summary: text(2000),
				firstKeptEntryId: kept,
				tokensBefore: 150000,
				details: { readFiles: ["a.ts"], modifiedFiles: [] },
				fromHook: false,
			});
		}
		if (turn > 0 && turn % 700 === 0) {
			// Abandon the branch: continue from an entry 40 back.
			const back = path_.length - 40;
			leaf = path_[back];
			path_.length = back + 1;
			add({ type: "branch_summary", fromId: hex(n), summary: text(400) });
		}
		if (turn % 500 === 250) add({ type: "label", targetId: leaf, label: `mark-${turn}` });
		if (turn % 300 === 10) add({ type: "custom", customType: "bench-ext", data: { turn } });
		add({ type: "message", message: { role: "user", content: [{ type: "text", text: text(120) }], timestamp: ms } });
		const callId = `toolu_${hex(n)}`;
		add({
			type: "message",
			message: {
				role: "assistant",
				content: [
					{ type: "text", text: text(200) },
					{
						type: "toolCall",
						id: callId,
						name: "bash",
						arguments: { command: `grep -rn ${words[turn % words.length]} src` },
					},
				],
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage,
				stopReason: "toolUse",
				timestamp: ms + 1,
			},
		});
		add({
			type: "message",
			message: {
				role: "toolResult",
				toolCallId: callId,
				toolName: "bash",
				content: [{ type: "text", text: text(toolResultBytes) }],
				isError: false,
				timestamp: ms + 2,
			},
		});
		add({
			type: "message",
			message: {
				role: "assistant",
				content: [{ type: "text", text: text(300) }],
				api: "anthropic-messages",
				provider: "anthropic",
				model: "claude-sonnet-4-5",
				usage,
				stopReason: "stop",
				timestamp: ms + 3,
			},
		});
		turn++;
	}
	writeSync(fd, buf.join(""));
	closeSync(fd);
	return { entries: n, leaf };
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const out = process.argv[2];
	if (!out) throw new Error("usage: session-gen.mjs <out.jsonl> [entries] [toolResultBytes]");
	const r = generateSession(out, Number(process.argv[3] ?? 100_000), Number(process.argv[4] ?? 1600));
	console.log(JSON.stringify(r));
}
