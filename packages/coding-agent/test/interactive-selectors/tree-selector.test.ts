// The /tree navigator in a headless terminal over a real (in-memory) session tree.
import { afterEach, describe, expect, it } from "vitest";
import { TreeSelector } from "../../src/modes/interactive/selectors/tree-selector.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, user } from "../session/helpers.js";
import { KEY, type Mounted, mount, theme } from "./support.js";

let mounted: Mounted | undefined;
afterEach(() => {
	mounted?.stop();
	mounted = undefined;
});

function branchedSession() {
	const sm = SessionManager.inMemory("/w");
	const ids: Record<string, string> = {};
	ids.u1 = sm.appendMessage(user("hello"));
	ids.a1 = sm.appendMessage(assistant("hi there"));
	ids.u2 = sm.appendMessage(user("approach A"));
	ids.a2 = sm.appendMessage(assistant("doing A"));
	sm.branch(ids.a1);
	ids.m = sm.appendModelChange("p1", "m2");
	ids.u3 = sm.appendMessage(user("approach B"));
	ids.a3 = sm.appendMessage(assistant("doing B"));
	return { sm, ids };
}

async function open(sm: SessionManager, extra: Partial<ConstructorParameters<typeof TreeSelector>[1]> = {}) {
	const events: string[] = [];
	const selector = new TreeSelector(theme, {
		tree: sm.getTree(),
		leafId: sm.getLeafId(),
		onSelect: (id) => events.push(`select ${id}`),
		onCancel: () => events.push("cancel"),
		onLabel: (id, label) => events.push(`label ${id} ${label ?? "(cleared)"}`),
		...extra,
	});
	mounted = await mount(selector, 80, 30);
	const rows = async () =>
		(await mounted!.screen())
			.split("\n")
			.filter((l) => /(user|assistant|model):/.test(l))
			.map((l) => l.trimEnd());
	return { selector, events, m: mounted, rows };
}

describe("tree selector", () => {
	it("draws branches with connectors, marks the active path and the leaf, starts on the leaf", async () => {
		const { sm } = branchedSession();
		const { rows } = await open(sm);
		// The branch holding the active path is listed first; ⊟ marks foldable branch starts.
		expect(await rows()).toEqual([
			"  • user: hello",
			"  • assistant: hi there",
			"  ├⊟ • user: approach B",
			"→ │  • assistant: doing B ← active",
			"  └⊟   user: approach A",
			"       assistant: doing A",
		]);
	});

	it("filters: all shows settings entries, user-only only user messages, Ctrl+O cycles", async () => {
		const { sm } = branchedSession();
		const { rows, m, selector } = await open(sm);
		await m.type(KEY.ctrl("a"));
		expect(selector.getFilterMode()).toBe("all");
		expect(await rows()).toContain("  ├⊟ • model: p1/m2");
		await m.type(KEY.ctrl("u"));
		expect(await rows()).toEqual(["  • user: hello", "→ ├─ • user: approach B", "  └─   user: approach A"]);
		await m.type(KEY.ctrl("u"));
		expect(selector.getFilterMode()).toBe("default");
		await m.type(KEY.ctrl("o"));
		expect(selector.getFilterMode()).toBe("no-tools");
		expect(await m.screen()).toContain("filter: no-tools");
	});

	it("moves with arrows and chooses with Enter; Esc cancels", async () => {
		const { sm, ids } = branchedSession();
		const { m, events } = await open(sm);
		await m.type(KEY.down);
		await m.type(KEY.down);
		await m.type(KEY.enter);
		await m.type(KEY.up);
		await m.type(KEY.up);
		await m.type(KEY.up);
		await m.type(KEY.enter);
		await m.type(KEY.escape);
		expect(events).toEqual([`select ${ids.a2}`, `select ${ids.u3}`, "cancel"]);
	});

	it("folds a branch segment with Ctrl+Left and unfolds with Ctrl+Right", async () => {
		const { sm, ids } = branchedSession();
		const { m, rows, selector } = await open(sm, { initialSelectedId: ids.u2 });
		await m.type(KEY.ctrlLeft);
		expect(await rows()).toEqual([
			"  • user: hello",
			"  • assistant: hi there",
			"  ├⊟ • user: approach B",
			"  │  • assistant: doing B ← active",
			"→ └⊞   user: approach A",
		]);
		await m.type(KEY.ctrlRight);
		expect((await rows())[5]).toBe("       assistant: doing A");
		// Not foldable (inside a segment): jumps to the segment start instead.
		await m.type(KEY.down);
		await m.type(KEY.ctrlLeft);
		expect(selector.getSelectedId()).toBe(ids.u2);
		// From a segment start, Ctrl+Right walks to the next segment start.
		await m.type(KEY.ctrlRight);
		expect(selector.getSelectedId()).toBe(ids.a2);
	});

	it("edits a label with Shift+L (shown in the tree, reported to the caller)", async () => {
		const { sm, ids } = branchedSession();
		const { m, events, rows } = await open(sm, { initialSelectedId: ids.u3 });
		await m.type("L");
		expect(await m.screen()).toContain("Label (empty clears");
		await m.type("checkpoint");
		await m.type(KEY.enter);
		expect(events).toEqual([`label ${ids.u3} checkpoint`]);
		expect(await rows()).toContain("→ ├⊟ • user: approach B [checkpoint]");
		await m.type(KEY.ctrl("l"));
		expect(await rows()).toEqual(["→ • user: approach B [checkpoint]"]);
	});

	it("type to search: only matching entries are listed, the selection moves to the nearest match", async () => {
		const { sm, ids } = branchedSession();
		const { m, rows, selector } = await open(sm);
		await m.type("approach");
		expect(await rows()).toEqual(["→ ├─ • user: approach B", "  └─   user: approach A"]);
		expect(selector.getSelectedId()).toBe(ids.u3);
		await m.type(" zzz");
		expect(await m.screen()).toContain("No entries match the search");
	});
});
