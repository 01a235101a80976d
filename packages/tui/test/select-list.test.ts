import { describe, expect, it } from "vitest";
import type { Component } from "../src/component.js";
import { SelectList } from "../src/components/select-list.js";
import { SettingsList } from "../src/components/settings-list.js";
import { selectTheme, settingsTheme } from "./helpers/themes.js";

const ITEMS = [
	{ value: "claude-sonnet", label: "claude-sonnet", description: "Anthropic" },
	{ value: "claude-opus", label: "claude-opus", description: "Anthropic, large" },
	{ value: "gpt-5", label: "gpt-5", description: "OpenAI" },
	{ value: "gemini-pro", label: "gemini-pro", description: "Google" },
	{ value: "grok", label: "grok" },
];

describe("SelectList", () => {
	it("renders items with the selection marker and descriptions", () => {
		const list = new SelectList(ITEMS, 10, selectTheme);
		expect(list.render(40)).toEqual([
			"→ claude-sonnet  Anthropic",
			"  claude-opus    Anthropic, large",
			"  gpt-5          OpenAI",
			"  gemini-pro     Google",
			"  grok",
		]);
	});

	it("filters fuzzily, best match first", () => {
		const list = new SelectList(ITEMS, 10, selectTheme);
		list.setFilter("cop");
		expect(list.getVisibleItems().map((i) => i.value)).toEqual(["claude-opus"]);
		list.setFilter("g");
		// All start with "g": the shortest text ranks first.
		expect(list.getVisibleItems().map((i) => i.value)).toEqual(["grok", "gpt-5", "gemini-pro"]);
		list.setFilter("zzz");
		expect(list.render(40)).toEqual(["  No matching commands"]);
		list.setFilter("");
		expect(list.getVisibleItems()).toHaveLength(5);
	});

	it("navigates with wrap-around and reports selection and cancel", () => {
		const list = new SelectList(ITEMS, 3, selectTheme);
		const events: string[] = [];
		list.onSelectionChange = (i) => events.push(`hl:${i.value}`);
		list.onSelect = (i) => events.push(`sel:${i.value}`);
		list.onCancel = () => events.push("cancel");
		list.handleInput("\x1b[A");
		expect(list.getSelectedItem()?.value).toBe("grok");
		list.handleInput("\x1b[B");
		list.handleInput("\x1b[B");
		list.handleInput("\r");
		list.handleInput("\x1b");
		expect(events).toEqual(["hl:grok", "hl:claude-sonnet", "hl:claude-opus", "sel:claude-opus", "cancel"]);
	});

	it("scrolls a window of maxVisible items with a position indicator", () => {
		const list = new SelectList(ITEMS, 2, selectTheme);
		list.setSelectedIndex(3);
		expect(list.render(40)).toEqual(["  gpt-5          OpenAI", "→ gemini-pro     Google", "  (4/5)"]);
	});

	it("keeps lines within the width", () => {
		const list = new SelectList(ITEMS, 10, selectTheme);
		for (const l of list.render(12)) expect(l.length).toBeLessThanOrEqual(12);
	});
});

describe("SettingsList", () => {
	it("cycles values with Enter/Space and reports changes", () => {
		const changes: string[] = [];
		const list = new SettingsList(
			[
				{ id: "theme", label: "Theme", currentValue: "dark", values: ["dark", "light"], description: "Colours" },
				{ id: "delivery", label: "Delivery", currentValue: "steer", values: ["steer", "follow-up", "queue"] },
			],
			10,
			settingsTheme,
			(id, v) => changes.push(`${id}=${v}`),
			() => changes.push("cancel"),
		);
		expect(list.render(40)).toEqual([
			"→ Theme     dark",
			"  Delivery  steer",
			"",
			"  Colours",
			"",
			"  Enter/Space to change · Esc to cancel",
		]);
		list.handleInput("\r");
		list.handleInput("\x1b[B");
		list.handleInput(" ");
		list.handleInput(" ");
		list.handleInput("\x1b");
		expect(changes).toEqual(["theme=light", "delivery=follow-up", "delivery=queue", "cancel"]);
	});

	it("opens a submenu and applies its result", () => {
		const changes: string[] = [];
		let done: ((v?: string) => void) | undefined;
		const sub: Component = { render: () => ["SUBMENU"], handleInput: (d) => d === "x" && done?.("chosen") };
		const list = new SettingsList(
			[
				{
					id: "model",
					label: "Model",
					currentValue: "a",
					submenu: (_cur, d) => {
						done = d;
						return sub;
					},
				},
			],
			5,
			settingsTheme,
			(id, v) => changes.push(`${id}=${v}`),
			() => {},
		);
		list.handleInput("\r");
		expect(list.render(30)).toEqual(["SUBMENU"]);
		list.handleInput("x");
		expect(changes).toEqual(["model=chosen"]);
		expect(list.render(30)[0]).toBe("→ Model  chosen");
	});

	it("filters by typing when search is enabled", () => {
		const list = new SettingsList(
			[
				{ id: "a", label: "Auto compact", currentValue: "on" },
				{ id: "b", label: "Theme", currentValue: "dark" },
			],
			5,
			settingsTheme,
			() => {},
			() => {},
			{ enableSearch: true },
		);
		for (const ch of "thm") list.handleInput(ch);
		const lines = list.render(40);
		expect(lines[0]).toContain("> thm");
		expect(lines[2]).toBe("→ Theme  dark");
		expect(lines.join("\n")).not.toContain("Auto compact");
	});
});
