import { describe, expect, it } from "vitest";
import { knownFlags, type ParsedArgs, parseArgs, resolveMode, unknownFlagErrors } from "../../src/cli/args.js";
import { formatHelp } from "../../src/cli/help.js";

const base = (): ParsedArgs => ({ messages: [], fileArgs: [], unknownFlags: new Map(), diagnostics: [] });

describe("parseArgs", () => {
	it.each<[string[], Partial<ParsedArgs>]>([
		[["-h"], { help: true }],
		[["--version"], { version: true }],
		[["-v"], { version: true }],
		[["-p", "hello", "world"], { print: true, messages: ["hello", "world"] }],
		[["-p", "--model", "x"], { print: true, model: "x" }],
		[["-p", "@f.md", "q"], { print: true, fileArgs: ["f.md"], messages: ["q"] }],
		[["-p", "---\ntitle: x\n---"], { print: true, messages: ["---\ntitle: x\n---"] }],
		[["-p", "--", "- dash"], { print: true, messages: ["- dash"] }],
		[["--mode", "json", "hi"], { mode: "json", messages: ["hi"] }],
		[["-c", "-r"], { continue: true, resume: true }],
		[
			["--provider", "openai", "--model", "gpt-4o:high", "--api-key", "k"],
			{ provider: "openai", model: "gpt-4o:high", apiKey: "k" },
		],
		[["--append-system-prompt", "a", "--append-system-prompt", "b.md"], { appendSystemPrompt: ["a", "b.md"] }],
		[["--system-prompt", "S"], { systemPrompt: "S" }],
		[["--session", "abc", "--session-dir", "d"], { session: "abc", sessionDir: "d" }],
		[["--no-session"], { noSession: true }],
		[["--models", "a, b,,c:high"], { models: ["a", "b", "c:high"] }],
		[["-t", "read,grep"], { tools: ["read", "grep"] }],
		[["-nt", "-nbt", "-nc"], { noTools: true, noBuiltinTools: true, noContextFiles: true }],
		[["--thinking", "high"], { thinking: "high" }],
		[["--thinking", "max"], { thinking: "max" }],
		[["--list-models"], { listModels: true }],
		[["--list-models", "sonnet"], { listModels: "sonnet" }],
		[["--list-models", "--verbose"], { listModels: true, verbose: true }],
		[["-e", "a.ts", "-e", "b.ts", "-ne"], { extensions: ["a.ts", "b.ts"], noExtensions: true }],
		[["--export", "s.jsonl", "out.html"], { export: "s.jsonl", messages: ["out.html"] }],
		[["-n", " My session "], { name: "My session" }],
		[["--offline", "-a"], { offline: true, approve: true }],
		[["@a.png", "@b.txt", "msg"], { fileArgs: ["a.png", "b.txt"], messages: ["msg"] }],
	])("%j", (argv, expected) => {
		expect(parseArgs(argv)).toEqual({ ...base(), ...expected });
	});

	it("keeps unknown long flags for extensions", () => {
		const r = parseArgs(["--plan", "--level=3", "--depth", "2", "--flag", "-p", "msg"]);
		expect([...r.unknownFlags]).toEqual([
			["plan", true],
			["level", "3"],
			["depth", "2"],
			["flag", true],
		]);
		expect(r.messages).toEqual(["msg"]);
		expect(r.print).toBe(true);
	});

	it("unknown long flags are errors unless an extension registers them", () => {
		const r = parseArgs(["--frobnicate", "--plan", "-p", "msg"]);
		expect(unknownFlagErrors(r)).toEqual([
			{ type: "error", message: "Unknown option: --frobnicate" },
			{ type: "error", message: "Unknown option: --plan" },
		]);
		expect(unknownFlagErrors(r, new Set(["plan"]))).toEqual([
			{ type: "error", message: "Unknown option: --frobnicate" },
		]);
		expect(unknownFlagErrors(parseArgs(["-p", "x"]))).toEqual([]);
	});

	it("registered extension flags parse by kind: a boolean flag leaves the next word as the message", () => {
		const kinds = new Map([
			["plan", "boolean" as const],
			["depth", "string" as const],
		]);
		const r = parseArgs(["--plan", "do it", "--depth", "-3", "--plan=no"], kinds);
		expect(r.messages).toEqual(["do it"]);
		expect([...r.unknownFlags]).toEqual([
			["plan", "no"],
			["depth", "-3"],
		]);
		expect(parseArgs(["--depth"], kinds).diagnostics).toEqual([{ type: "error", message: "--depth requires a value" }]);
	});

	it("unknown short flags, bad values and missing values are diagnostics", () => {
		expect(parseArgs(["-x"]).diagnostics).toEqual([{ type: "error", message: "Unknown option: -x" }]);
		expect(parseArgs(["--mode", "yaml"]).diagnostics).toEqual([
			{ type: "error", message: 'Invalid mode "yaml". Valid values: text, json, rpc' },
		]);
		expect(parseArgs(["--model"]).diagnostics).toEqual([{ type: "error", message: "--model requires a value" }]);
		const thinking = parseArgs(["--thinking", "ultra"]);
		expect(thinking.thinking).toBeUndefined();
		expect(thinking.diagnostics[0]).toEqual({
			type: "warning",
			message: 'Invalid thinking level "ultra" (ignored). Valid values: off, minimal, low, medium, high, xhigh, max',
		});
	});
});

describe("resolveMode", () => {
	it("rpc/json by flag, print with -p or piped stdin, else interactive", () => {
		expect(resolveMode(parseArgs(["--mode", "rpc", "-p"]), true)).toBe("rpc");
		expect(resolveMode(parseArgs(["--mode", "json"]), true)).toBe("json");
		expect(resolveMode(parseArgs(["-p", "x"]), true)).toBe("print");
		expect(resolveMode(parseArgs(["x"]), false)).toBe("print");
		expect(resolveMode(parseArgs(["x"]), true)).toBe("interactive");
	});
});

describe("--help", () => {
	it("documents every flag the parser accepts (none hidden, e.g. --session-id)", () => {
		const help = formatHelp("0.0.0");
		const missing = knownFlags().filter((flag) => !new RegExp(`(^|[\\s,])${flag}([\\s,]|$)`, "m").test(help));
		expect(missing).toEqual([]);
		expect(knownFlags()).toContain("--session-id");
	});
});
