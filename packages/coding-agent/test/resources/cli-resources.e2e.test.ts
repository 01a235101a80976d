// The built CLI against the fake provider: `/skill:name args` and
// `/template args` reach the model expanded, the system prompt lists the
// skill (name, description, location only), --verbose lists what loaded from
// where, and an untrusted project's skills/templates stay out.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "../cli/support.js";

const sb = useCliSandbox({
	setup(sb) {
		sb.writeModels();
	},
});

const MODEL = ["--model", "fake/fake-model"];

function writeSkill(root: string, name: string, frontmatter: string, body: string): string {
	const dir = join(root, name);
	mkdirSync(dir, { recursive: true });
	const file = join(dir, "SKILL.md");
	writeFileSync(file, `---\n${frontmatter}\n---\n${body}`);
	return file;
}

function userText(index: number): string {
	const messages = body(sb.fake, index).messages;
	const user = messages.filter((m) => m.role === "user").at(-1);
	return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

function systemText(index: number): string {
	return String(body(sb.fake, index).messages[0].content);
}

describe("skills and prompt templates through the built CLI", () => {
	it("/skill:name args sends the instructions plus the arguments; the prompt lists the skill", async () => {
		const file = writeSkill(
			join(sb.agentDir, "skills"),
			"pdf-tools",
			"name: pdf-tools\ndescription: Extract text from PDF files.",
			"# PDF\n\nRun scripts/extract.sh on the file.\n",
		);
		writeSkill(
			join(sb.agentDir, "skills"),
			"secret-ops",
			"description: Only by command.\ndisable-model-invocation: true",
			"Do secret things.\n",
		);
		sb.fake.enqueue(textReply("done"));
		const r = await sb.run(["-p", ...MODEL, "/skill:pdf-tools extract report.pdf"]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		const sent = userText(0);
		expect(sent).toBe(
			[
				`<skill name="pdf-tools" location="${file}">`,
				`Relative paths in this skill resolve against ${join(sb.agentDir, "skills", "pdf-tools")}.`,
				"",
				"# PDF\n\nRun scripts/extract.sh on the file.",
				"</skill>",
				"",
				"extract report.pdf",
			].join("\n"),
		);
		const system = systemText(0);
		expect(system).toContain("<name>pdf-tools</name>");
		expect(system).toContain("<description>Extract text from PDF files.</description>");
		expect(system).toContain(`<location>${file}</location>`);
		// Progressive disclosure: the instructions are not in the prompt; command-only skills are not listed.
		expect(system).not.toContain("Run scripts/extract.sh");
		expect(system).not.toContain("secret-ops");
	});

	it("/template args sends the template with the arguments substituted", async () => {
		mkdirSync(join(sb.agentDir, "prompts"), { recursive: true });
		writeFileSync(
			join(sb.agentDir, "prompts", "review.md"),
			'---\ndescription: Review code\nargument-hint: "[focus]"\n---\nReview $1 focusing on ${2:-correctness}; all: $@\n',
		);
		sb.fake.enqueue(textReply("ok"), textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, '/review "src/a b.ts" speed', "/unknown stays"]);
		expect(r.code).toBe(0);
		expect(userText(0)).toBe("Review src/a b.ts focusing on speed; all: src/a b.ts speed\n");
		expect(userText(1)).toBe("/unknown stays");
	});

	it("--skill and --prompt-template load explicit paths; -ns and -np drop discovered ones", async () => {
		writeSkill(join(sb.agentDir, "skills"), "found", "description: Discovered skill.", "found body\n");
		const extra = writeSkill(join(sb.root, "elsewhere"), "explicit", "description: Explicit skill.", "explicit body\n");
		mkdirSync(join(sb.agentDir, "prompts"), { recursive: true });
		writeFileSync(join(sb.agentDir, "prompts", "disc.md"), "discovered template");
		writeFileSync(join(sb.root, "cli.md"), "cli template $1");
		sb.fake.enqueue(textReply("1"), textReply("2"), textReply("3"));
		const r = await sb.run([
			"-p",
			...MODEL,
			"-ns",
			"-np",
			"--skill",
			join(sb.root, "elsewhere"),
			"--prompt-template",
			join(sb.root, "cli.md"),
			"/cli x",
			"/disc",
			"/skill:found",
		]);
		expect(r.code).toBe(0);
		expect(userText(0)).toBe("cli template x");
		expect(userText(1)).toBe("/disc");
		expect(userText(2)).toBe("/skill:found");
		const system = systemText(0);
		expect(system).toContain(`<location>${extra}</location>`);
		expect(system).not.toContain("<name>found</name>");
	});

	it("an untrusted project's .pi/skills and .pi/prompts are not loaded; --approve loads them", async () => {
		writeSkill(join(sb.cwd, ".pi", "skills"), "proj-skill", "description: Project skill.", "project body\n");
		mkdirSync(join(sb.cwd, ".pi", "prompts"), { recursive: true });
		writeFileSync(join(sb.cwd, ".pi", "prompts", "proj.md"), "project template");
		sb.fake.enqueue(textReply("1"), textReply("2"));
		const untrusted = await sb.run(["-p", ...MODEL, "/proj"]);
		expect(untrusted.code).toBe(0);
		expect(userText(0)).toBe("/proj");
		expect(systemText(0)).not.toContain("proj-skill");
		const trusted = await sb.run(["-p", ...MODEL, "--approve", "/proj"]);
		expect(trusted.code).toBe(0);
		expect(userText(1)).toBe("project template");
		expect(systemText(1)).toContain("<name>proj-skill</name>");
	});

	it("--verbose says what loaded from where and what was skipped and why", async () => {
		const good = writeSkill(join(sb.agentDir, "skills"), "good", "description: Fine.", "x\n");
		const bad = writeSkill(join(sb.agentDir, "skills"), "bad", "name: bad", "no description\n");
		writeSkill(join(sb.home, ".agents", "skills"), "good", "description: Shadowed.", "y\n");
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "--verbose", "hi"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain(`good [user] ${good}`);
		expect(r.stderr).toContain(`Warning (skill): ${bad}:1: description: skipped: description is required`);
		expect(r.stderr).toMatch(
			/Warning \(skill\): .*\.agents\/skills\/good\/SKILL\.md: skill "good" skipped: the name is taken by/,
		);
		// Without --verbose, the skipped file is still reported, the listing is not.
		sb.fake.enqueue(textReply("ok"));
		const quiet = await sb.run(["-p", ...MODEL, "hi"]);
		expect(quiet.stderr).toContain("description is required");
		expect(quiet.stderr).not.toContain(`good [user]`);
	});
});
