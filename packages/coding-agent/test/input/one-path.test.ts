// The one input path with its real stages: an extension command, `input`
// handlers and `before_agent_start` from in-memory extensions bound through
// the ExtensionBridge, a real skill file and a prompt template from the
// resource loader. Asserts the order (command → input → skill → template →
// before_agent_start), each short-circuit, and that prompt, steer, follow-up
// and pi.sendUserMessage all take this one path.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentMessage } from "@pi/agent-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExtensionBridge } from "../../src/agent-session/extension-bridge.js";
import { createNoUIContext } from "../../src/extensions/no-ui.js";
import type { ExtensionAPI } from "../../src/extensions/types.js";
import type { ResourceLoader } from "../../src/resources/resource-loader.js";
import { makeSession } from "../agent-session/support.js";
import { inMemoryExtensions } from "../extensions/helpers.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-one-path-"));
	writeFileSync(join(dir, "SKILL.md"), "---\nname: review\ndescription: Reviews code.\n---\nREVIEW-INSTRUCTIONS\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function resources(): ResourceLoader {
	const skill = {
		name: "review",
		description: "Reviews code.",
		filePath: join(dir, "SKILL.md"),
		baseDir: dir,
		origin: { source: "cli" as const },
		disableModelInvocation: false,
	};
	return {
		reload: async () => {},
		getContextFiles: () => [],
		getSystemPrompt: () => undefined,
		getAppendSystemPrompt: () => [],
		getSkills: () => [skill],
		getSkillDetails: () => [skill],
		getDiagnostics: () => [],
		getPromptTemplates: () => [
			{
				name: "greet",
				description: "Greets.",
				content: "TEMPLATE says hello to $1",
				filePath: join(dir, "greet.md"),
				origin: { source: "cli" as const },
			},
		],
	};
}

/** A session with the resource stages (createAgentSession) and the extension stages (bridge.start). */
async function setup(extension: (pi: ExtensionAPI, log: string[]) => void) {
	const log: string[] = [];
	const made = await makeSession({ resourceLoader: resources() });
	const { runner, errors } = inMemoryExtensions({ "/ext/a.ts": (pi) => extension(pi, log) });
	const bridge = new ExtensionBridge({
		session: made.session,
		runner,
		mode: "print",
		ui: createNoUIContext(),
		hasUI: false,
		projectTrusted: false,
	});
	await bridge.start("startup");
	return { ...made, bridge, runner, errors, log };
}

const userTexts = (messages: AgentMessage[]) =>
	messages
		.filter((m) => m.role === "user")
		.map((m) => {
			const c = (m as { content: string | { type: string; text?: string }[] }).content;
			return typeof c === "string" ? c : c.map((p) => p.text ?? "").join("");
		});

/** Records what every stage saw, in order, and passes the input on unchanged. */
function recordAll(pi: ExtensionAPI, log: string[]) {
	pi.registerCommand("cmd", {
		description: "a command",
		handler: async (args) => {
			log.push(`command:${args}`);
		},
	});
	pi.on("input", (event) => {
		log.push(`input:${event.source}:${event.text}`);
		return { action: "continue" };
	});
	pi.on("before_agent_start", (event) => {
		if (event.messageType === "user") log.push(`before_agent_start:${event.prompt.split("\n")[0]}`);
		return undefined;
	});
}

describe("one input path: extension command → input → skill → template → before_agent_start", () => {
	it("an extension command is handled: no input event, no expansion, no request", async () => {
		const { session, fake, log } = await setup(recordAll);
		await session.prompt("/cmd some args");
		expect(log).toEqual(["command:some args"]);
		expect(fake.calls).toHaveLength(0);
	});

	it("the input event sees the text as typed; the skill is expanded after it; before_agent_start sees the result", async () => {
		const { session, fake, log } = await setup(recordAll);
		fake.enqueue({ text: "ok" });
		await session.prompt("/skill:review src/a.ts", { source: "rpc" });
		expect(log).toEqual(["input:rpc:/skill:review src/a.ts", expect.stringMatching(/^before_agent_start:<skill/)]);
		const [sent] = userTexts(fake.calls[0].messages);
		expect(sent).toContain("REVIEW-INSTRUCTIONS");
		expect(sent).toContain("src/a.ts");
	});

	it("an input transform chains into the template slot: a rewrite to /greet is expanded", async () => {
		const { session, fake, log } = await setup((pi, l) => {
			recordAll(pi, l);
			pi.on("input", (event) => (event.text === "hi" ? { action: "transform", text: "/greet world" } : undefined));
		});
		fake.enqueue({ text: "ok" });
		await session.prompt("hi");
		expect(log).toEqual(["input:interactive:hi", "before_agent_start:TEMPLATE says hello to world"]);
		expect(userTexts(fake.calls[0].messages)).toEqual(["TEMPLATE says hello to world"]);
	});

	it("input handled ends the path: the skill is not read, before_agent_start does not run, nothing is sent", async () => {
		const { session, fake, log } = await setup((pi, l) => {
			pi.on("input", () => ({ action: "handled" }));
			recordAll(pi, l);
		});
		rmSync(join(dir, "SKILL.md")); // an expansion would now report an unreadable file
		await session.prompt("/skill:review x");
		expect(log).toEqual([]); // the first input handler handled it; later ones never ran
		expect(fake.calls).toHaveLength(0);
		expect(session.messages).toHaveLength(0);
	});

	it("a command that throws is reported and still handled; the run it started is awaited by submit", async () => {
		const { bridge, fake, errors, session } = await setup((pi) => {
			pi.registerCommand("boom", {
				description: "fails",
				handler: async () => {
					throw new Error("kaput");
				},
			});
			pi.registerCommand("ask", {
				description: "asks the model",
				handler: async (args) => pi.sendUserMessage(`asked: ${args}`),
			});
		});
		await bridge.submit("/boom");
		expect(errors).toEqual([expect.objectContaining({ extensionPath: "/ext/a.ts", event: "command:/boom" })]);
		fake.enqueue({ text: "answer" });
		await bridge.submit("/ask /greet x");
		// sendUserMessage without expandPromptTemplates sends the text as typed, and submit waited for that run.
		expect(userTexts(fake.calls[0].messages)).toEqual(["asked: /greet x"]);
		expect(session.messages.at(-1)?.role).toBe("assistant");
	});

	it("sendUserMessage with expandPromptTemplates dispatches commands and expands templates; its input event says source extension", async () => {
		const { bridge, fake, log } = await setup((pi, l) => {
			recordAll(pi, l);
			pi.registerCommand("relay", {
				description: "relays",
				handler: async (args) => pi.sendUserMessage(args, { expandPromptTemplates: true }),
			});
		});
		fake.enqueue({ text: "ok" });
		await bridge.submit("/relay /greet you");
		expect(log).toEqual(["input:extension:/greet you", "before_agent_start:TEMPLATE says hello to you"]);
		expect(userTexts(fake.calls[0].messages)).toEqual(["TEMPLATE says hello to you"]);
		await bridge.submit("/relay /cmd nested");
		expect(log.at(-1)).toBe("command:nested");
		expect(fake.calls).toHaveLength(1);
	});

	it("steer and follow-up: prompt() while streaming runs command/input then the resource slots; no before_agent_start for them", async () => {
		const { session, fake, log } = await setup(recordAll);
		let release: () => void = () => {};
		fake.enqueue({ text: "first", gate: new Promise<void>((r) => (release = r)) }, { text: "second" });
		const run = session.prompt("go");
		while (!session.isStreaming || fake.calls.length === 0) await new Promise((r) => setTimeout(r, 1));
		await session.prompt("/cmd during run", { streamingBehavior: "steer" });
		await session.prompt("/greet steer", { streamingBehavior: "steer" });
		await session.followUp("/greet later"); // typed straight to followUp: resource slots only
		release();
		await run;
		expect(log).toEqual([
			"input:interactive:go",
			"before_agent_start:go",
			"command:during run",
			"input:interactive:/greet steer",
		]);
		const sentLater = userTexts(fake.calls[1].messages);
		expect(sentLater).toContain("TEMPLATE says hello to steer");
		expect(userTexts(fake.calls.at(-1)?.messages ?? [])).toContain("TEMPLATE says hello to later");
	});

	it("a prompt while streaming without streamingBehavior still runs an extension command, and is refused otherwise", async () => {
		const { session, fake, log } = await setup(recordAll);
		let release: () => void = () => {};
		fake.enqueue({ text: "first", gate: new Promise<void>((r) => (release = r)) });
		const run = session.prompt("go");
		while (!session.isStreaming || fake.calls.length === 0) await new Promise((r) => setTimeout(r, 1));
		const command = session.prompt("/cmd now");
		// the command waits for the current run to end (it may have started runs of its own)
		await expect(session.prompt("plain")).rejects.toThrow(/run is in progress/);
		release();
		await Promise.all([run, command]);
		expect(log).toContain("command:now");
		expect(log).toContain("input:interactive:plain");
	});
});
