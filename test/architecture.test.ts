// Enforces the import directions of DESIGN.md §1 and §1.4:
//   ai <- agent <- coding-agent -> tui, no cycles, no self-barrel imports,
//   only cli/ and modes/ may import modes/ inside pi-coding-agent, nothing
//   outside cli/ (but index.ts) imports cli/ (so
//   extensions/ defines the UI contract modes implement, never the reverse,
//   and input/ stays mode-neutral), and builtins/ reaches the rest of the
//   package only through the public extension API.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const packageOf: Record<string, string> = {
	"@pi/ai": "ai",
	"@pi/agent-core": "agent",
	"@pi/tui": "tui",
	"@pi/coding-agent": "coding-agent",
	"@pi/fleet": "fleet",
};
const allowed: Record<string, string[]> = {
	ai: [],
	agent: ["ai"],
	tui: [],
	"coding-agent": ["ai", "agent", "tui"],
	// Above the product: `pi fleet` loads it by name at run time, never by a static import.
	fleet: ["ai", "agent", "coding-agent"],
};

function sourceFiles(dir: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...sourceFiles(path));
		else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
	}
	return out;
}

const importPattern =
	/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
	const specs: string[] = [];
	for (const m of text.matchAll(importPattern)) specs.push(m[1] ?? m[2] ?? m[3]);
	return specs;
}

function resolveRelative(from: string, spec: string): string {
	const base = resolve(dirname(from), spec);
	return base.replace(/\.js$/, ".ts");
}

const files = Object.values(packageOf).flatMap((pkg) => {
	try {
		return sourceFiles(join(root, "packages", pkg, "src")).map((file) => ({ pkg, file }));
	} catch {
		return [];
	}
});

describe("architecture", () => {
	it("packages import only along the allowed layer directions", () => {
		const violations: string[] = [];
		for (const { pkg, file } of files) {
			for (const spec of importsOf(file)) {
				const target = Object.entries(packageOf).find(([name]) => spec === name || spec.startsWith(`${name}/`));
				if (!target) {
					if (spec.startsWith(".") && !resolve(dirname(file), spec).startsWith(join(root, "packages", pkg))) {
						violations.push(`${relative(root, file)} reaches outside its package: ${spec}`);
					}
					continue;
				}
				const targetPkg = target[1];
				if (targetPkg === pkg) violations.push(`${relative(root, file)} imports its own package barrel ${spec}`);
				else if (!allowed[pkg].includes(targetPkg))
					violations.push(`${relative(root, file)} (${pkg}) must not import ${spec} (${targetPkg})`);
			}
		}
		expect(violations).toEqual([]);
	});

	it("no module imports its own package's index.ts (or its internal.ts barrel)", () => {
		const violations: string[] = [];
		for (const { pkg, file } of files) {
			const barrels = [
				join(root, "packages", pkg, "src", "index.ts"),
				join(root, "packages", pkg, "src", "internal.ts"),
			];
			for (const spec of importsOf(file)) {
				if (spec.startsWith(".") && barrels.includes(resolveRelative(file, spec))) {
					violations.push(`${relative(root, file)} imports ${spec}`);
				}
			}
		}
		expect(violations).toEqual([]);
	});

	it("inside pi-coding-agent only cli/ and modes/ import modes/", () => {
		const src = join(root, "packages", "coding-agent", "src");
		const modes = join(src, "modes");
		const violations: string[] = [];
		for (const { pkg, file } of files) {
			if (pkg !== "coding-agent") continue;
			// The two barrels (index.ts, internal.ts) re-export the print/rpc modes' entry points.
			const barrel = file === join(src, "index.ts") || file === join(src, "internal.ts");
			if (file.startsWith(join(src, "cli")) || file.startsWith(modes) || barrel) continue;
			for (const spec of importsOf(file)) {
				if (spec.startsWith(".") && resolveRelative(file, spec).startsWith(modes)) {
					violations.push(`${relative(root, file)} imports ${spec}`);
				}
			}
		}
		expect(violations).toEqual([]);
	});

	it("inside pi-coding-agent nothing below cli/ imports cli/ (only cli/ itself and index.ts)", () => {
		// cli/ wires a mode to a session; runtime/, packages/, extensions/… are what it wires, so an import
		// back into cli/ (static or a lazy import()) is a layer inversion.
		const src = join(root, "packages", "coding-agent", "src");
		const cli = join(src, "cli");
		const violations: string[] = [];
		for (const { pkg, file } of files) {
			if (pkg !== "coding-agent") continue;
			if (file.startsWith(`${cli}/`) || file === join(src, "index.ts")) continue;
			for (const spec of importsOf(file)) {
				if (spec.startsWith(".") && resolveRelative(file, spec).startsWith(`${cli}/`)) {
					violations.push(`${relative(root, file)} imports ${spec}`);
				}
			}
		}
		expect(violations).toEqual([]);
	});

	it("extensions/ and input/ never import modes/ (modes implement their contracts)", () => {
		const src = join(root, "packages", "coding-agent", "src");
		const modes = join(src, "modes");
		const violations: string[] = [];
		for (const { pkg, file } of files) {
			if (pkg !== "coding-agent") continue;
			if (!file.startsWith(join(src, "extensions")) && !file.startsWith(join(src, "input"))) continue;
			for (const spec of importsOf(file)) {
				if (spec.startsWith(".") && resolveRelative(file, spec).startsWith(modes)) {
					violations.push(`${relative(root, file)} imports ${spec}`);
				}
			}
		}
		expect(violations).toEqual([]);
	});

	it("builtins/ imports only the public extension API, its own files and other packages", () => {
		// Vacuous while builtins/ does not exist yet; the rule holds from its first file on.
		const src = join(root, "packages", "coding-agent", "src");
		const builtins = join(src, "builtins");
		const publicApi = [join(src, "extensions", "types.ts")];
		const violations: string[] = [];
		for (const { pkg, file } of files) {
			if (pkg !== "coding-agent" || !file.startsWith(`${builtins}/`)) continue;
			for (const spec of importsOf(file)) {
				if (!spec.startsWith(".")) continue;
				const target = resolveRelative(file, spec);
				const path = target.endsWith(".ts") ? target : `${target}.ts`;
				if (path.startsWith(`${builtins}/`) || publicApi.includes(path)) continue;
				violations.push(`${relative(root, file)} imports ${spec}`);
			}
		}
		expect(violations).toEqual([]);
	});

	it("has no import cycles", () => {
		const graph = new Map<string, string[]>();
		for (const { file } of files) {
			graph.set(
				file,
				importsOf(file)
					.filter((s) => s.startsWith("."))
					.map((s) => {
						const r = resolveRelative(file, s);
						return r.endsWith(".ts") ? r : `${r}.ts`;
					}),
			);
		}
		const state = new Map<string, "visiting" | "done">();
		const cycles: string[] = [];
		const visit = (node: string, stack: string[]) => {
			if (state.get(node) === "done") return;
			if (state.get(node) === "visiting") {
				const cycle = stack.slice(stack.indexOf(node)).concat(node);
				cycles.push(cycle.map((f) => relative(root, f)).join(" -> "));
				return;
			}
			state.set(node, "visiting");
			for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next, [...stack, node]);
			state.set(node, "done");
		};
		for (const node of graph.keys()) visit(node, []);
		expect(cycles).toEqual([]);
	});

	it("agent-session's sub-folders depend on each other without cycles (retry/ and compaction/ share backoff/)", () => {
		// Folder-level, not file-level: retry/ importing compaction/ in one file and
		// compaction/ importing retry/ in another is a cycle of concepts even when no
		// single file chain loops. recovery/ orchestrates both; backoff/ sits below them.
		const base = join(root, "packages", "coding-agent", "src", "agent-session");
		const folderOf = (file: string): string | undefined => {
			const rel = relative(base, file);
			return rel.startsWith("..") || !rel.includes("/") ? undefined : rel.split("/")[0];
		};
		const edges = new Map<string, Set<string>>();
		for (const { file } of files) {
			const from = folderOf(file);
			if (!from) continue;
			for (const spec of importsOf(file)) {
				if (!spec.startsWith(".")) continue;
				const to = folderOf(resolveRelative(file, spec));
				if (to && to !== from) {
					if (!edges.has(from)) edges.set(from, new Set());
					edges.get(from)?.add(to);
				}
			}
		}
		const cycles: string[] = [];
		const reaches = (from: string, target: string, seen = new Set<string>()): boolean => {
			for (const next of edges.get(from) ?? []) {
				if (next === target) return true;
				if (!seen.has(next)) {
					seen.add(next);
					if (reaches(next, target, seen)) return true;
				}
			}
			return false;
		};
		for (const folder of edges.keys()) if (reaches(folder, folder)) cycles.push(folder);
		expect(cycles).toEqual([]);
		expect(edges.get("compaction")?.has("retry") ?? false).toBe(false);
		expect(edges.get("retry")?.has("compaction") ?? false).toBe(false);
		expect(edges.get("recovery")).toEqual(new Set(["backoff", "compaction", "retry"]));
	});

	it("finds the source files it checks", () => {
		expect(files.length).toBeGreaterThan(3);
	});
});
