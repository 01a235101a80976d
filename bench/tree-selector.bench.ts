/**
 * /tree on a long session: a 10,000-entry session (user/assistant/tool turns,
 * a branch every 50 entries). Measures opening the tree selector (building
 * its rows from `getTree()` and the first render at 120 columns) and one
 * keypress (move up + render; mean of 20 per opened selector). Ours (src/modes/interactive/selectors) and the
 * reference 0.73.1 TreeSelectorComponent get the same tree, alternating in
 * one process.
 *
 *   npx tsx bench/tree-selector.bench.ts [--entries N] [--runs N]
 */
import { performance } from "node:perf_hooks";
import type { AssistantMessage } from "../packages/ai/src/index.js";
import { TreeSelector } from "../packages/coding-agent/src/modes/interactive/selectors/tree-selector.js";
import { plainTheme } from "../packages/coding-agent/src/modes/interactive/theme-fallback.js";
import { SessionManager } from "../packages/coding-agent/src/session/session-manager.js";

const REF = `${process.env.PI_REFERENCE_DIR ?? "/work/ref073"}/node_modules/@mariozechner/pi-coding-agent/dist`;
const args = process.argv.slice(2);
const argNum = (name: string, dflt: number) => {
	const at = args.indexOf(name);
	return at >= 0 ? Number(args[at + 1]) : dflt;
};
const ENTRIES = argNum("--entries", 10_000);
const RUNS = argNum("--runs", 15);
const WIDTH = 120;
/** Keypresses per opened selector (Up, each followed by a render). */
const KEYS = 20;

function assistant(text: string, toolCall?: boolean): AssistantMessage {
	return {
		role: "assistant",
		content: toolCall
			? [{ type: "toolCall", id: `c${Math.random()}`, name: "read", arguments: { path: "src/file.ts" } }]
			: [{ type: "text", text }],
		api: "openai-completions",
		provider: "p",
		model: "m",
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: toolCall ? "toolUse" : "stop",
		timestamp: Date.now(),
	};
}

const sm = SessionManager.inMemory("/w");
let branchPoint: string | null = null;
for (let i = 0; sm.getEntryCount() < ENTRIES; i++) {
	if (i % 12 === 11 && branchPoint) sm.branch(branchPoint);
	sm.appendMessage({
		role: "user",
		content: [{ type: "text", text: `question ${i} about the parser` }],
		timestamp: Date.now(),
	});
	branchPoint = sm.appendMessage(assistant("", true));
	sm.appendMessage({
		role: "toolResult",
		toolCallId: "x",
		toolName: "read",
		content: [{ type: "text", text: "file contents ".repeat(20) }],
		isError: false,
		timestamp: Date.now(),
	});
	sm.appendMessage(assistant(`answer ${i}: `.padEnd(200, "x")));
}
const tree = sm.getTree();
const leaf = sm.getLeafId();

type Sample = { open: number[]; key: number[] };
const ours: Sample = { open: [], key: [] };
const ref: Sample = { open: [], key: [] };

const refTui = await import(
	`${process.env.PI_REFERENCE_DIR ?? "/work/ref073"}/node_modules/@mariozechner/pi-tui/dist/index.js`
);
const refTheme = await import(`${REF}/modes/interactive/theme/theme.js`);
const refTree = await import(`${REF}/modes/interactive/components/tree-selector.js`);
refTheme.initTheme("dark", false);
const refKeys = await import(`${REF}/core/keybindings.js`);
refTui.setKeybindings(new refKeys.KeybindingsManager());

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (let run = 0; run < RUNS + 1; run++) {
	{
		const t0 = performance.now();
		const sel = new TreeSelector(() => plainTheme, {
			tree,
			leafId: leaf,
			maxVisible: 20,
			onSelect: () => {},
			onCancel: () => {},
		});
		sel.render(WIDTH);
		const t1 = performance.now();
		for (let k = 0; k < KEYS; k++) {
			sel.handleInput("\x1b[A");
			sel.render(WIDTH);
		}
		const t2 = performance.now();
		if (run > 0) {
			ours.open.push(t1 - t0);
			ours.key.push((t2 - t1) / KEYS);
		}
	}
	{
		const t0 = performance.now();
		const sel = new refTree.TreeSelectorComponent(
			tree,
			leaf,
			40,
			() => {},
			() => {},
		);
		sel.render(WIDTH);
		const t1 = performance.now();
		for (let k = 0; k < KEYS; k++) {
			sel.handleInput("\x1b[A");
			sel.render(WIDTH);
		}
		const t2 = performance.now();
		if (run > 0) {
			ref.open.push(t1 - t0);
			ref.key.push((t2 - t1) / KEYS);
		}
	}
}

const fmt = (x: number) => `${x.toFixed(2)} ms`;
console.log(`session: ${sm.getEntryCount()} entries, ${RUNS} runs after 1 warm-up, width ${WIDTH}`);
console.log(`open /tree (rows + first render): ours ${fmt(median(ours.open))}, reference ${fmt(median(ref.open))}`);
console.log(`keypress (move + render), mean:    ours ${fmt(median(ours.key))}, reference ${fmt(median(ref.key))}`);
