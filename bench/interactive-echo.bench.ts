/**
 * Keystroke echo latency of the interactive app while a reply streams:
 * InteractiveMode (packages/coding-agent/src) on an in-memory terminal, a
 * real AgentSession streaming ~1,500 text deltas (one every 4 ms) from the
 * local fake OpenAI-compatible server, and a key typed every 25 ms. Latency
 * is the time from handing the key to the TUI until the next frame is
 * written to the terminal (the frame that shows it). CPU is the process's
 * user+system time over the measured window, as a share of that window.
 *
 * `--extensions` loads one in-process extension through the real extension
 * bridge that updates a footer status every 100 ms and shows three widgets
 * (two above the editor, one below), the load issue 15 measures against.
 *
 *   npx tsx --conditions development bench/interactive-echo.bench.ts [--keys N] [--history N] [--extensions]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { frameEnds, startFakeProvider } from "../packages/ai/test/support/fake-provider/server.js";
import { createAgentSession } from "../packages/coding-agent/src/agent-session/create-agent-session.js";
import { ExtensionBridge } from "../packages/coding-agent/src/agent-session/extension-bridge.js";
import { createNoUIContext } from "../packages/coding-agent/src/extensions/no-ui.js";
import type { ExtensionAPI } from "../packages/coding-agent/src/extensions/types.js";
import { InteractiveMode } from "../packages/coding-agent/src/modes/interactive/interactive-mode.js";
import { SessionManager } from "../packages/coding-agent/src/session/session-manager.js";
import { inMemoryExtensions } from "../packages/coding-agent/test/extensions/helpers.js";
import { MemoryTerminal } from "../packages/tui/src/index.js";

const args = process.argv.slice(2);
const KEYS = Number(args[args.indexOf("--keys") + 1]) || 200;
/** Earlier exchanges already in the transcript (user + assistant markdown each). */
const HISTORY = args.includes("--history") ? Number(args[args.indexOf("--history") + 1]) : 0;
const WITH_EXTENSIONS = args.includes("--extensions");

const root = mkdtempSync(join(tmpdir(), "pi-echo-"));
const agentDir = join(root, "agent");
const cwd = join(root, "work");
mkdirSync(agentDir, { recursive: true });
mkdirSync(cwd, { recursive: true });
const fake = await startFakeProvider();
writeFileSync(
	join(agentDir, "models.json"),
	JSON.stringify({
		providers: {
			fake: {
				baseUrl: `${fake.url}/v1`,
				api: "openai-completions",
				apiKey: "k",
				compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
				models: [{ id: "fake-model", contextWindow: 100000 }],
			},
		},
	}),
);
const words = Array.from({ length: 1500 }, (_, i) => (i % 12 === 11 ? "word.\n\n" : `word${i} `));
const stream = new ChatStream({ model: "fake-model" })
	.role()
	.text(...words)
	.finish("stop")
	.done();
const script = stream.script();
fake.enqueue({ ...script, splitAt: frameEnds(script.bytes), delayMs: 4 });

const sessionManager = SessionManager.inMemory(cwd);
const usage = {
	input: 10,
	output: 10,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 20,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
for (let i = 0; i < HISTORY; i++) {
	sessionManager.appendMessage({ role: "user", content: [{ type: "text", text: `question ${i}` }], timestamp: i });
	sessionManager.appendMessage({
		role: "assistant",
		content: [{ type: "text", text: `## Answer ${i}\n\nSome **bold** text, a list:\n\n- one\n- two\n\n\`code ${i}\`` }],
		api: "openai-completions",
		provider: "fake",
		model: "fake-model",
		usage,
		stopReason: "stop",
		timestamp: i,
	});
}
const { session } = await createAgentSession({ cwd, agentDir, sessionManager });

/** A status line ticking every 100 ms and three widgets. */
function busyDecorations(pi: ExtensionAPI): void {
	let timer: NodeJS.Timeout | undefined;
	pi.on("session_start", (_event, ctx) => {
		ctx.ui.setWidget("above-1", ["widget one: build passing", "second line"]);
		ctx.ui.setWidget("above-2", ["widget two: 3 tasks open"]);
		ctx.ui.setWidget("below-1", ["widget three: below the editor"], { placement: "belowEditor" });
		let tick = 0;
		timer = setInterval(() => ctx.ui.setStatus("clock", `tick ${++tick}`), 100);
	});
	pi.on("session_shutdown", () => clearInterval(timer));
}

let extensions:
	| { bridge: ExtensionBridge; runner: ReturnType<typeof inMemoryExtensions>["runner"]; problems: string[] }
	| undefined;
if (WITH_EXTENSIONS) {
	const { runner } = inMemoryExtensions({ "busy-decorations.ts": busyDecorations });
	const bridge = new ExtensionBridge({
		session,
		runner,
		mode: "tui",
		ui: createNoUIContext(),
		hasUI: true,
		projectTrusted: true,
	});
	extensions = { bridge, runner, problems: [] };
}
const terminal = new MemoryTerminal(100, 40);
let lastWriteAt = 0;
/** Frames that drew the extension's status and widgets (proof the load is on screen). */
const drawn = { status: 0, widget: 0 };
const origWrite = terminal.write.bind(terminal);
terminal.write = (data: string) => {
	lastWriteAt = performance.now();
	if (data.includes("tick ")) drawn.status++;
	if (data.includes("widget three")) drawn.widget++;
	origWrite(data);
	terminal.takeOutput();
};
const mode = new InteractiveMode({ session, cwd, agentDir, version: "bench", terminal, extensions });
void mode.run();
await new Promise((r) => setTimeout(r, 100));
const prompt = session.prompt("stream please");
await new Promise((r) => setTimeout(r, 300));

const latencies: number[] = [];
const cpuStart = process.cpuUsage();
const wallStart = performance.now();
for (let i = 0; i < KEYS && session.isStreaming; i++) {
	const sentAt = performance.now();
	terminal.sendInput("x");
	while (lastWriteAt < sentAt) await new Promise((r) => setImmediate(r));
	latencies.push(lastWriteAt - sentAt);
	await new Promise((r) => setTimeout(r, 25));
}
const cpu = process.cpuUsage(cpuStart);
const wall = performance.now() - wallStart;
await prompt.catch(() => {});
await mode.shutdown();
session.dispose();
await fake.close();
rmSync(root, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))];
console.log(
	`history: ${HISTORY} exchanges; extensions: ${WITH_EXTENSIONS ? "status every 100 ms + 3 widgets" : "none"}; keystrokes measured while streaming: ${latencies.length}`,
);
if (WITH_EXTENSIONS) console.log(`frames drawing the status: ${drawn.status}, the widgets: ${drawn.widget}`);
console.log(
	`CPU over the window: ${(((cpu.user + cpu.system) / 1000 / wall) * 100).toFixed(0)}% of one core (${wall.toFixed(0)} ms)`,
);
console.log(
	`echo latency ms: median ${q(0.5).toFixed(2)}  p90 ${q(0.9).toFixed(2)}  p99 ${q(0.99).toFixed(2)}  max ${latencies.at(-1)?.toFixed(2)}`,
);
process.exit(0);
