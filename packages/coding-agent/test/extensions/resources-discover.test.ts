// resources_discover through the built CLI: the skill and prompt-template
// directories an extension returns join the loader's, so `/skill:name` and
// `/template` expand in the same run and the skill is listed to the model.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, useCliSandbox } from "../cli/support.js";

const sb = useCliSandbox();

function extensionPointingAt(skills: string, prompts: string): string {
	const file = join(sb.root, "discover.ts");
	writeFileSync(
		file,
		`export default function (pi) { pi.on("resources_discover", () => ({ skillPaths: [${JSON.stringify(skills)}], promptPaths: [${JSON.stringify(prompts)}] })); }`,
	);
	return file;
}

describe("resources_discover", () => {
	it("skills and templates an extension discovers are usable in the same run", async () => {
		const skills = join(sb.root, "ext-skills");
		const prompts = join(sb.root, "ext-prompts");
		mkdirSync(join(skills, "deploy"), { recursive: true });
		mkdirSync(prompts, { recursive: true });
		writeFileSync(
			join(skills, "deploy", "SKILL.md"),
			"---\nname: deploy\ndescription: Ship the build to staging\n---\nRun the deploy script carefully.\n",
		);
		writeFileSync(join(prompts, "triage.md"), "---\ndescription: Triage\n---\nTriage the issue about $1\n");
		const ext = extensionPointingAt(skills, prompts);

		sb.fake.enqueue(textReply("deployed"));
		const skill = await sb.run(["-e", ext, "-p", "/skill:deploy now"]);
		expect(skill.stderr).not.toMatch(/error/i);
		expect(skill.code).toBe(0);
		const first = JSON.stringify(body(sb.fake, 0));
		expect(first).toContain("Run the deploy script carefully.");
		// Listed to the model with the other skills.
		expect(first).toContain("Ship the build to staging");

		sb.fake.enqueue(textReply("triaged"));
		const template = await sb.run(["-e", ext, "-p", "/triage flaky-tests"]);
		expect(template.code).toBe(0);
		expect(JSON.stringify(body(sb.fake, 1))).toContain("Triage the issue about flaky-tests");
	});
});
