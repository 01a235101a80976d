// `/skill:name args` expansion (pure, with an injected reader).
import { describe, expect, it } from "vitest";
import { expandSkillCommand, stripFrontmatter } from "../../src/input/skill-command.js";

const skill = { name: "pdf", filePath: "/s/pdf/SKILL.md", baseDir: "/s/pdf" };
const files: Record<string, string> = { "/s/pdf/SKILL.md": "---\nname: pdf\ndescription: d\n---\n\n# PDF\nDo it.\n" };
const read = (p: string) => {
	const text = files[p];
	if (text === undefined) throw Object.assign(new Error("nope"), { code: "ENOENT" });
	return text;
};

describe("expandSkillCommand", () => {
	it("wraps the instructions (frontmatter removed) and appends the arguments", () => {
		const r = expandSkillCommand("/skill:pdf  extract a.pdf ", [skill], read);
		expect(r).toEqual({
			kind: "expanded",
			skill,
			text: '<skill name="pdf" location="/s/pdf/SKILL.md">\nRelative paths in this skill resolve against /s/pdf.\n\n# PDF\nDo it.\n</skill>\n\nextract a.pdf',
		});
	});
	it("without arguments sends only the block", () => {
		const r = expandSkillCommand("/skill:pdf", [skill], read);
		expect(r.kind === "expanded" && r.text.endsWith("</skill>")).toBe(true);
	});
	it("unknown skills and other text are left alone", () => {
		expect(expandSkillCommand("/skill:nope x", [skill], read)).toEqual({ kind: "none" });
		expect(expandSkillCommand("/pdf x", [skill], read)).toEqual({ kind: "none" });
		expect(expandSkillCommand("hello /skill:pdf", [skill], read)).toEqual({ kind: "none" });
	});
	it("an unreadable file is an error naming it", () => {
		const gone = { ...skill, filePath: "/s/gone/SKILL.md" };
		const r = expandSkillCommand("/skill:pdf", [gone], read);
		expect(r).toMatchObject({ kind: "error", message: "Could not read skill /s/gone/SKILL.md: ENOENT" });
	});
	it("stripFrontmatter handles CRLF, no frontmatter and an unclosed block", () => {
		expect(stripFrontmatter("---\r\na: 1\r\n---\r\nbody")).toBe("body");
		expect(stripFrontmatter("plain")).toBe("plain");
		expect(stripFrontmatter("---\na: 1\nno close")).toBe("---\na: 1\nno close");
	});
});
