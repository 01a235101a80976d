// Sample files written by hand from the documented formats of earlier pi
// builds (v1 linear, v2 tree, v3 = 0.73.1, and 1.x with system entries).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { convertToLlm } from "../../src/messages.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { tempDir, texts } from "./helpers.js";

const usage =
	'{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}';
const asst = (text: string, model = "claude") =>
	`{"role":"assistant","content":[{"type":"text","text":"${text}"}],"api":"anthropic-messages","provider":"anthropic","model":"${model}","usage":${usage},"stopReason":"stop","timestamp":2}`;

const V1 = [
	'{"type":"session","id":"v1-session","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/old","provider":"anthropic","modelId":"claude","thinkingLevel":"off"}',
	'{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"first","timestamp":1}}',
	`{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":${asst("one")}}`,
	'{"type":"message","timestamp":"2025-01-01T00:00:03.000Z","message":{"role":"user","content":"second","timestamp":3}}',
	`{"type":"message","timestamp":"2025-01-01T00:00:04.000Z","message":${asst("two")}}`,
	'{"type":"compaction","timestamp":"2025-01-01T00:00:05.000Z","summary":"old summary","firstKeptEntryIndex":3,"tokensBefore":500}',
	'{"type":"message","timestamp":"2025-01-01T00:00:06.000Z","message":{"role":"user","content":"third","timestamp":6}}',
	"",
].join("\n");

const V2 = [
	'{"type":"session","version":2,"id":"v2-session","timestamp":"2025-02-01T00:00:00.000Z","cwd":"/v2"}',
	'{"type":"message","id":"aaaaaaaa","parentId":null,"timestamp":"2025-02-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}',
	'{"type":"message","id":"bbbbbbbb","parentId":"aaaaaaaa","timestamp":"2025-02-01T00:00:02.000Z","message":{"role":"hookMessage","customType":"hook","content":"from a hook","display":true,"timestamp":2}}',
	`{"type":"message","id":"cccccccc","parentId":"bbbbbbbb","timestamp":"2025-02-01T00:00:03.000Z","message":${asst("ok")}}`,
	"",
].join("\n");

// As 0.73.1 writes it (REFERENCE.md §5.3 samples).
const V3 = [
	'{"type":"session","version":3,"id":"01a228e0-c40f-7527-a3bf-5e2595e35928","timestamp":"2026-11-29T19:55:48.624Z","cwd":"/work"}',
	'{"type":"model_change","id":"3894b438","parentId":null,"timestamp":"2026-11-29T19:55:48.700Z","provider":"fake","modelId":"fake-model"}',
	'{"type":"thinking_level_change","id":"aa08e04d","parentId":"3894b438","timestamp":"2026-11-29T19:55:48.701Z","thinkingLevel":"off"}',
	'{"type":"message","id":"e88306c0","parentId":"aa08e04d","timestamp":"2026-11-29T19:55:48.702Z","message":{"role":"user","content":[{"type":"text","text":"hello there"}],"timestamp":1795982148681}}',
	`{"type":"message","id":"b1915dea","parentId":"e88306c0","timestamp":"2026-11-29T19:55:48.800Z","message":${asst("Hello from fake.", "fake-model").replace('"provider":"anthropic"', '"provider":"fake"')}}`,
	'{"type":"session_info","id":"0281175d","parentId":"b1915dea","timestamp":"2026-11-29T19:55:49.000Z","name":"rpc test"}',
	'{"type":"message","id":"b714d973","parentId":"0281175d","timestamp":"2026-11-29T19:55:49.100Z","message":{"role":"bashExecution","command":"echo from-rpc-bash","output":"from-rpc-bash\\n","exitCode":0,"cancelled":false,"truncated":false,"timestamp":1795982149100}}',
	'{"type":"compaction","id":"2eb9986a","parentId":"b714d973","timestamp":"2026-11-29T19:55:49.200Z","summary":"Hello from fake.","firstKeptEntryId":"b714d973","tokensBefore":146,"details":{"readFiles":[],"modifiedFiles":[]},"fromHook":false}',
	"",
].join("\n");

// 1.x: a leading system message with the prompt and tools, a later patch, a context edit, a checkpointed compaction.
const V1X = [
	'{"type":"session","version":3,"id":"0199aaaa-0000-7000-8000-000000000000","timestamp":"2026-03-01T00:00:00.000Z","cwd":"/new"}',
	'{"type":"message","id":"a0b1c2d3","parentId":null,"timestamp":"2026-03-01T00:00:00.000Z","message":{"role":"system","content":"","sections":{"preamble":"You are pi.","tools":"<tools/>"},"toolsAdded":[{"name":"read","description":"r","parameters":{}},{"name":"write","description":"w","parameters":{}}],"timestamp":1}}',
	'{"type":"message","id":"a1b2c3d4","parentId":"a0b1c2d3","timestamp":"2026-03-01T00:00:01.000Z","message":{"role":"user","content":"Hello","timestamp":2}}',
	`{"type":"message","id":"b2c3d4e5","parentId":"a1b2c3d4","timestamp":"2026-03-01T00:00:02.000Z","message":${asst("bad answer")}}`,
	'{"type":"context_edit","id":"c3d4e5f6","parentId":"b2c3d4e5","timestamp":"2026-03-01T00:00:03.000Z","targetId":"b2c3d4e5","replacement":null}',
	'{"type":"message","id":"d4e5f6a7","parentId":"c3d4e5f6","timestamp":"2026-03-01T00:00:04.000Z","message":{"role":"system","content":"","sections":{"skills":"<skills/>"},"toolsRemoved":[{"name":"write"}],"timestamp":4}}',
	`{"type":"message","id":"e5f6a7b8","parentId":"d4e5f6a7","timestamp":"2026-03-01T00:00:05.000Z","message":${asst("good answer")}}`,
	"",
].join("\n");

function writeSample(text: string, name: string): string {
	const file = join(tempDir(), name);
	writeFileSync(file, text);
	return file;
}

describe("sessions written by earlier pi builds", () => {
	it("v1 (linear, no ids): migrated in memory, compaction index resolved, file untouched", () => {
		const file = writeSample(V1, "v1.jsonl");
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		const entries = sm.getEntries();
		expect(entries.map((e) => e.parentId)).toEqual([null, ...entries.slice(0, -1).map((e) => e.id)]);
		const compaction = entries[4];
		expect(compaction).toMatchObject({ type: "compaction", firstKeptEntryId: entries[2].id });
		expect(compaction).not.toHaveProperty("firstKeptEntryIndex");
		const ctx = sm.buildSessionContext();
		expect(texts(ctx.messages)).toEqual([
			"compactionSummary:old summary",
			"user:second",
			"assistant:two",
			"user:third",
		]);
		expect(ctx.model).toEqual({ provider: "anthropic", modelId: "claude" });
		expect(sm.getCwd()).toBe("/old");
		expect(readFileSync(file, "utf8")).toBe(V1);
		sm.close();
		expect(readFileSync(file, "utf8")).toBe(V1);
	});

	it("v1 ids are stable across loads, so entries appended later keep their parent", () => {
		const file = writeSample(V1, "v1.jsonl");
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		const leaf = sm.getLeafId();
		const id = sm.appendMessage({ role: "user", content: "appended", timestamp: 9 });
		sm.close();
		expect(readFileSync(file, "utf8").startsWith(V1)).toBe(true);
		const again = SessionManager.open(file);
		expect(again.getEntry(id)?.parentId).toBe(leaf);
		expect(texts(again.buildSessionContext().messages).at(-1)).toBe("user:appended");
		again.close();
	});

	it("v2: hookMessage becomes a custom message", () => {
		const file = writeSample(V2, "v2.jsonl");
		const sm = SessionManager.open(file);
		const ctx = sm.buildSessionContext();
		expect(ctx.messages.map((m) => m.role)).toEqual(["user", "custom", "assistant"]);
		expect(convertToLlm(ctx.messages)[1]).toEqual({
			role: "user",
			content: [{ type: "text", text: "from a hook" }],
			timestamp: 2,
		});
		expect(readFileSync(file, "utf8")).toBe(V2);
		sm.close();
	});

	it("v3 (0.73.1): model, name, bash execution and compaction project like the reference", () => {
		const file = writeSample(V3, "v3.jsonl");
		const sm = SessionManager.open(file);
		expect(sm.getSessionName()).toBe("rpc test");
		expect(sm.getSessionId()).toBe("01a228e0-c40f-7527-a3bf-5e2595e35928");
		const ctx = sm.buildSessionContext();
		expect(ctx.model).toEqual({ provider: "fake", modelId: "fake-model" });
		expect(ctx.thinkingLevel).toBe("off");
		expect(texts(convertToLlm(ctx.messages))).toEqual([
			"user:The conversation history before this point was compacted into the following summary:\n\n<summary>\nHello from fake.\n</summary>",
			"user:Ran `echo from-rpc-bash`\n```\nfrom-rpc-bash\n\n```",
		]);
		expect(sm.getLoadWarnings()).toEqual([]);
		sm.close();
	});

	it("1.x: system head + patches stay in place, context_edit omits, compaction checkpoint leads", () => {
		const file = writeSample(V1X, "v1x.jsonl");
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		let ctx = sm.buildSessionContext();
		expect(ctx.messages.map((m) => m.role)).toEqual(["system", "user", "system", "assistant"]);
		expect(texts(ctx.messages)).toContain("assistant:good answer");
		expect(texts(ctx.messages)).not.toContain("assistant:bad answer");

		sm.appendCompaction("sum", "e5f6a7b8", 99);
		ctx = sm.buildSessionContext();
		expect(ctx.messages.map((m) => m.role)).toEqual(["system", "compactionSummary", "assistant"]);
		const checkpoint = ctx.messages[0];
		expect(checkpoint).toMatchObject({
			role: "system",
			content: "",
			sections: { preamble: "You are pi.", tools: "<tools/>", skills: "<skills/>" },
			toolsAdded: [{ name: "read", description: "r", parameters: {} }],
		});
		sm.close();
		expect(readFileSync(file, "utf8").startsWith(V1X)).toBe(true);
	});

	it("a file written by the reference CLI (0.73.1, print mode with a tool call, then --continue) loads and projects", () => {
		const file = join(tempDir(), "ref.jsonl");
		const original = readFileSync(join(__dirname, "fixtures", "reference-0.73.1-print.jsonl"), "utf8");
		writeFileSync(file, original);
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		expect(sm.getLoadWarnings()).toEqual([]);
		expect(sm.getSessionId()).toBe("01a22959-3e19-75d1-9e62-4ac2976641c0");
		const ctx = sm.buildSessionContext();
		expect(ctx.model).toEqual({ provider: "fake", modelId: "fake-model" });
		expect(ctx.thinkingLevel).toBe("off");
		expect(texts(convertToLlm(ctx.messages))).toEqual([
			"user:run echo for me",
			"assistant:[toolCall]",
			"toolResult:hello-from-bash\n",
			"assistant:The command printed hello-from-bash.",
			"user:thanks",
			"assistant:You are welcome.",
		]);
		// Continuing it appends in the same format, after the reference's bytes.
		const id = sm.appendMessage({ role: "user", content: [{ type: "text", text: "more" }], timestamp: 1 });
		sm.close();
		const after = readFileSync(file, "utf8");
		expect(after.startsWith(original)).toBe(true);
		expect(JSON.parse(after.slice(original.length))).toMatchObject({ type: "message", id, parentId: "85332ace" });
	});
});
