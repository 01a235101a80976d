// Shared by the issue 25 benches (floor.bench.mjs, loop-instr.mjs, screen-instr.mjs): the scripted
// OpenAI chat-completions SSE replies of their in-process fake provider, and a home per build with
// a models.json naming it, a clean environment and its own code-cache directory.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One SSE chunk of a chat completion. */
export const chunk = (delta, finish = null) =>
	`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 1, model: "fake-model", choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`;

/** A whole reply calling tool `name` with `args` (call id `call_<n>`). */
export const toolReply = (n, name, args) =>
	chunk({
		role: "assistant",
		content: null,
		tool_calls: [{ index: 0, id: `call_${n}`, type: "function", function: { name, arguments: JSON.stringify(args) } }],
	}) +
	chunk({}, "tool_calls") +
	usage +
	"data: [DONE]\n\n";

/** A whole reply answering `text`. */
export const textReply = (text) =>
	chunk({ role: "assistant", content: text }) + chunk({}, "stop") + usage + "data: [DONE]\n\n";

/**
 * `<root>/<name>` as HOME, with `fake/fake-model` at `baseUrl` in its models.json, a work dir, and
 * an environment that keeps the machine's keys, network and other homes' code caches out: pi's code
 * cache (docs/startup.md) is per home, so runs are warm after a warm-up and builds never share one.
 */
export function makeFloorHome(root, name, baseUrl) {
	const home = join(root, name);
	const agentDir = join(home, ".pi", "agent");
	const cwd = join(home, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	writeFileSync(
		join(agentDir, "models.json"),
		JSON.stringify({
			providers: {
				fake: {
					baseUrl,
					api: "openai-completions",
					apiKey: "fake-key",
					compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
					models: [{ id: "fake-model", contextWindow: 200000 }],
				},
			},
		}),
	);
	const env = {
		PATH: process.env.PATH,
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		PI_OFFLINE: "1",
		PI_SKIP_VERSION_CHECK: "1",
		PI_TELEMETRY: "0",
		TERM: "xterm-256color",
		PI_COMPILE_CACHE: join(home, "compile-cache"),
	};
	return { home, agentDir, cwd, env };
}
