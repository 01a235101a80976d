// `pi config`: its own small screen (like the trust question) listing every
// resource of every package in one settings scope, then the extensions
// bundled with pi, with on/off. Space or Enter
// switches a resource and the settings entry is written at once (the caller
// does it, under the settings lock); Tab switches between user and project
// settings; Esc or Ctrl+C leaves.
import { type Component, ProcessTerminal, type SettingItem, SettingsList, type Terminal, TUI } from "@pi/tui";
import { BUILTIN_IDENTITY } from "../../packages/builtin-config.js";
import type { ConfigRow } from "../../packages/config-model.js";
import { line, liveSettingsListTheme, SelectorFrame } from "./selectors/frame.js";
import { type AppTheme, fallbackTheme } from "./theme-fallback.js";

export type ConfigScope = "user" | "project";

export interface ConfigScopeView {
	file: string;
	rows: ConfigRow[];
	/** Lines shown above the list (packages that could not be read, an untrusted project). */
	notes: string[];
}

export interface PackageConfigScreenOptions {
	initialScope: ConfigScope;
	load(scope: ConfigScope): ConfigScopeView;
	/** Writes the change; resolves to an error message when it could not. */
	toggle(scope: ConfigScope, row: ConfigRow, enable: boolean): Promise<string | undefined>;
	terminal?: Terminal;
	theme?: AppTheme;
}

const NOUN: Record<ConfigRow["kind"], string> = {
	extensions: "extension (runs code)",
	skills: "skill",
	prompts: "prompt template",
	themes: "theme",
};

function shortSpec(spec: string): string {
	return spec.length <= 28 ? spec : `…${spec.slice(-27)}`;
}

export function runPackageConfigScreen(o: PackageConfigScreenOptions): Promise<void> {
	const theme = o.theme ?? fallbackTheme;
	const tui = new TUI(o.terminal ?? new ProcessTerminal());
	let scope = o.initialScope;
	let view = o.load(scope);
	let status = "";
	let list: SettingsList;

	return new Promise((resolveDone) => {
		let done = false;
		const finish = () => {
			if (done) return;
			done = true;
			tui.clear();
			tui.renderNow();
			tui.stop();
			resolveDone();
		};
		const rowId = (r: ConfigRow) => `${r.identity}\u0000${r.kind}\u0000${r.item}`;
		const build = () => {
			const items: SettingItem[] = view.rows.map((r) => ({
				id: rowId(r),
				label: `${shortSpec(r.spec)}  ${r.item}`,
				description:
					r.identity === BUILTIN_IDENTITY
						? `extension bundled with pi (builtin:${r.item}); off writes -builtin:${r.item} to "extensions"`
						: `${NOUN[r.kind]} from ${r.spec}`,
				currentValue: r.enabled ? "on" : "off",
				values: ["on", "off"],
			}));
			list = new SettingsList(
				items,
				Math.max(5, Math.min(items.length, 15)),
				liveSettingsListTheme(() => theme),
				(id, value) => {
					const row = view.rows.find((r) => rowId(r) === id);
					if (!row) return;
					const enable = value === "on";
					const changedScope = scope;
					void o.toggle(changedScope, row, enable).then((error) => {
						if (error) {
							status = theme.fg("error", `Not saved: ${error}`);
							list.updateValue(id, enable ? "off" : "on");
						} else {
							row.enabled = enable;
							status = theme.fg("dim", `Saved to ${view.file}`);
						}
						tui.requestRender();
					});
				},
				finish,
			);
		};
		build();
		const header: Component = {
			render: (width) => [
				line(` ${theme.fg("muted", view.file)}`, width),
				...view.notes.map((n) => line(` ${theme.fg("warning", n)}`, width)),
				...(view.rows.every((r) => r.identity === BUILTIN_IDENTITY)
					? [line(` ${theme.fg("dim", "No package resources in this scope.")}`, width)]
					: []),
				"",
			],
			invalidate: () => {},
		};
		const body: Component = {
			render: (width) => [
				...header.render(width),
				...list.render(width),
				...(status ? [line(` ${status}`, width)] : []),
			],
			invalidate: () => list.invalidate(),
			handleInput: (data) => {
				if (data === "\x03") return finish();
				if (data === "\t") {
					scope = scope === "user" ? "project" : "user";
					view = o.load(scope);
					status = "";
					build();
				} else list.handleInput(data);
				tui.requestRender();
			},
		};
		const frame = new SelectorFrame(
			() => theme,
			() => `Package resources — ${scope === "user" ? "user settings" : "project settings"}`,
			body,
			() => "↑↓ move · space/enter on/off (saved at once) · tab user/project · esc quit",
		);
		tui.addChild(frame);
		tui.setFocus(frame);
		tui.start();
		tui.requestRender();
	});
}
