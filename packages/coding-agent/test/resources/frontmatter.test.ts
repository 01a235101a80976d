// The frontmatter fast path (flat `key: words` lines read without the YAML
// parser) must give exactly what the yaml package gives, and hand everything
// else to it.

import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { flatMapping, parseFrontmatter } from "../../src/resources/frontmatter.js";

const FLAT = [
	"name: pdf-tools\ndescription: Extracts text and tables from PDF files.\n",
	"name: lint\r\ndescription: Lint the project carefully\r\n",
	"description: Review the staged diff\nargument-hint: <focus>\n".replace("<focus>", "focus area"),
	"disable-model-invocation: true\nname: x\n",
	"flag: False\nother: NULL\nthird: TRUE\n",
	"description: Uses C# and a:b and [brackets] and {braces}, commas\n",
	"description: trailing spaces   \n",
	"description: yes\nother: no\nthird: on\n",
	"description: Null pointer checks\n",
	"a_b: x\n\nc-d: y\n",
];

const NOT_FLAT = [
	'description: "quoted: value"\n',
	"description: 'single'\n",
	"description: value # comment\n",
	"# a comment\nname: x\n",
	"metadata:\n  owner: me\n",
	"allowed-tools:\n  - read\n",
	"description: has: colon space\n",
	"description: ends with colon:\n",
	"count: 3\n",
	"version: 1.0\n",
	"description: >\n  folded\n",
	"description: |\n  literal\n",
	"tools: [read, bash]\n",
	"name: a\nname: b\n",
	"__proto__: x\n",
	"description: -dash\n",
	"description: *alias\n",
	"description: &anchor x\n",
	"empty:\n",
	"description: first\n  continued\n",
	"description:\ttab\n",
	"...\n",
];

describe("frontmatter fast path", () => {
	it("flat key: words mappings are read without YAML and equal yaml.parse", () => {
		for (const text of FLAT) {
			const fast = flatMapping(text);
			expect(fast, text).toBeDefined();
			expect(fast, text).toEqual(parse(text));
		}
	});

	it("anything else goes to the YAML parser (quotes, comments, nesting, numbers, block scalars, repeats)", () => {
		for (const text of NOT_FLAT) expect(flatMapping(text), text).toBeUndefined();
	});

	it("parseFrontmatter uses the parser only for the files that need it, with the same results", () => {
		let calls = 0;
		const counting = (t: string) => {
			calls++;
			return parse(t);
		};
		const flat = parseFrontmatter("---\nname: x\ndescription: Does things\n---\nBody\n", counting);
		expect(calls).toBe(0);
		expect(flat.data).toEqual({ name: "x", description: "Does things" });
		expect(flat.body).toBe("Body\n");
		const nested = parseFrontmatter("---\nname: x\nmetadata:\n  a: 1\n---\nBody\n", counting);
		expect(calls).toBe(1);
		expect(nested.data).toEqual({ name: "x", metadata: { a: 1 } });
		expect(() => parseFrontmatter("---\nname: a\nname: b\n---\n", counting)).toThrow(/invalid YAML frontmatter/);
	});
});
