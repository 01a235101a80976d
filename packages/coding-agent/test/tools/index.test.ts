import { describe, expect, it } from "vitest";
import {
	allToolNames,
	createAllTools,
	createCodingTools,
	createReadOnlyTools,
	createTool,
} from "../../src/tools/index.js";

describe("tool factories", () => {
	it("default set is read, bash, edit, write; grep/find/ls are opt-in", () => {
		expect(createCodingTools("/").map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
		expect(createReadOnlyTools("/").map((t) => t.name)).toEqual(["read", "grep", "find", "ls"]);
		expect(Object.keys(createAllTools("/"))).toEqual([...allToolNames]);
	});

	it("uses the reference's parameter names", () => {
		const props = (name: (typeof allToolNames)[number]) =>
			Object.keys((createTool(name, "/").parameters as { properties: object }).properties);
		expect(props("read")).toEqual(["path", "offset", "limit"]);
		expect(props("bash")).toEqual(["command", "timeout"]);
		expect(props("edit")).toEqual(["path", "edits"]);
		expect(props("write")).toEqual(["path", "content"]);
		expect(props("grep")).toEqual(["pattern", "path", "glob", "ignoreCase", "literal", "context", "limit"]);
		expect(props("find")).toEqual(["pattern", "path", "limit"]);
		expect(props("ls")).toEqual(["path", "limit"]);
	});
});
