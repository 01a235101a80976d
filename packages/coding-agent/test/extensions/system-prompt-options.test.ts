// A command's ctx.getSystemPromptOptions() (1.6.0 docs/extensions.md,
// "ExtensionCommandContext"): the base inputs pi builds the system prompt
// from — active tools, appended text, cwd, context files, skills — in the
// shape before_agent_start's `systemPromptOptions` has, a fresh copy each
// call, without a turn's before_agent_start changes. BUILT CLI, print mode;
// the extension logs what it got to a file the test reads. Build first.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "../cli/support.js";

const EXT = `import { appendFileSync } from "node:fs";
export default function (pi) {
	const log = (what, value) => appendFileSync(process.env.OPTS_LOG, JSON.stringify({ what, value }) + "\\n");
	pi.registerCommand("opts", {
		handler: async (_args, ctx) => {
			const first = ctx.getSystemPromptOptions();
			first.selectedTools.length = 0;
			first.contextFiles.push({ path: "/nowhere", content: "changed" });
			log("command", ctx.getSystemPromptOptions());
		},
	});
	pi.on("before_agent_start", (event) => {
		log("before_agent_start", structuredClone(event.systemPromptOptions));
		// A handler's change applies to its turn only: the next command sees pi's inputs again.
		event.systemPromptOptions.skills.length = 0;
	});
}
`;

const sb = useCliSandbox();

interface Options {
	customPrompt?: string;
	appendSystemPrompt?: string;
	selectedTools: string[];
	cwd: string;
	contextFiles: { path: string; content: string }[];
	skills: { name: string; description: string; filePath: string }[];
}

describe("ctx.getSystemPromptOptions() in a command", () => {
	it("reports the prompt's base inputs, as before_agent_start gets them, fresh on every call", async () => {
		writeFileSync(join(sb.agentDir, "AGENTS.md"), "Global rule: be brief.\n");
		writeFileSync(join(sb.cwd, "AGENTS.md"), "Project rule: tabs.\n");
		const skillDir = join(sb.agentDir, "skills", "pdf-tools");
		mkdirSync(skillDir, { recursive: true });
		writeFileSync(
			join(skillDir, "SKILL.md"),
			"---\nname: pdf-tools\ndescription: Extract text from PDF files.\n---\nRun it.\n",
		);
		writeFileSync(join(sb.cwd, "ext.ts"), EXT);
		const log = join(sb.root, "opts.log");
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(
			[
				"-p",
				"--model",
				"fake/fake-model",
				"--tools",
				"read,bash",
				"--append-system-prompt",
				"Answer in haiku.",
				"-e",
				"ext.ts",
				"/opts",
				"hi",
				"/opts",
			],
			{ env: { OPTS_LOG: log } },
		);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		const entries = readFileSync(log, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l) as { what: string; value: Options });
		expect(entries.map((e) => e.what)).toEqual(["command", "before_agent_start", "command"]);
		const [before, atStart, after] = entries.map((e) => e.value);

		expect(before.selectedTools).toEqual(["read", "bash"]);
		expect(before.cwd).toBe(sb.cwd);
		expect(before.appendSystemPrompt).toBe("Answer in haiku.");
		expect(before.customPrompt).toBeUndefined();
		expect(before.contextFiles).toEqual(
			expect.arrayContaining([
				{ path: join(sb.agentDir, "AGENTS.md"), content: "Global rule: be brief.\n" },
				{ path: join(sb.cwd, "AGENTS.md"), content: "Project rule: tabs.\n" },
			]),
		);
		expect(before.contextFiles.map((f) => f.path)).not.toContain("/nowhere");
		expect(before.skills).toEqual([
			{ name: "pdf-tools", description: "Extract text from PDF files.", filePath: join(skillDir, "SKILL.md") },
		]);
		// The same inputs before_agent_start gets; its handler's change does not reach the next call.
		expect(atStart).toEqual(before);
		expect(after).toEqual(before);
		// What they describe is what the model got.
		const system = String((sb.fake.requests[0].body as { messages: { content: unknown }[] }).messages[0].content);
		expect(system).toContain("Answer in haiku.");
		expect(system).toContain("Project rule: tabs.");
		expect(system).toContain("pdf-tools");
	});

	it("a --system-prompt replacement is the customPrompt", async () => {
		writeFileSync(join(sb.cwd, "ext.ts"), EXT);
		const log = join(sb.root, "opts.log");
		const r = await sb.run(
			["-p", "--model", "fake/fake-model", "--system-prompt", "You are terse.", "-e", "ext.ts", "/opts"],
			{ env: { OPTS_LOG: log } },
		);
		expect(r.code).toBe(0);
		const [entry] = readFileSync(log, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l) as { value: Options });
		expect(entry.value.customPrompt).toBe("You are terse.");
		expect(entry.value.appendSystemPrompt).toBeUndefined();
		expect(sb.fake.requests).toHaveLength(0);
	});
});
