// The part skills and prompt templates share: going over their roots in
// precedence order (a missing conventional root is normal, a missing named
// one a warning; a file root must be Markdown; a directory is walked once
// under a loop/size guard), keeping the first item of a name, reporting
// later ones as collisions, and reading a file's frontmatter. What a
// directory walk collects and what a file must hold stay with each kind
// (skills.ts: SKILL.md directories and ignore files; prompt-templates.ts:
// `.md` children).
import { describeOrigin, type ResourceDiagnostic, type ResourceOrigin } from "./diagnostics.js";
import { canonicalPath, newWalkGuard, pathKind, readResourceText, type WalkGuard } from "./files.js";
import { type FrontmatterError, type FrontmatterResult, parseFrontmatter, type YamlParse } from "./frontmatter.js";

export interface LoadResult<T> {
	items: T[];
	diagnostics: ResourceDiagnostic[];
}

export interface WalkRoot {
	path: string;
	origin: ResourceOrigin;
	/** A conventional location: absence is normal and not reported. */
	optional?: boolean;
}

export interface FoundFile {
	path: string;
	/** Named directly (a file root, or a SKILL.md), not just a `.md` found in a directory. */
	declared: boolean;
}

export interface RootWalk<R extends WalkRoot> {
	kind: "skill" | "prompt";
	/** "skill" / "prompt template", in the missing-root warning. */
	noun: string;
	/** Collects the candidate files of a directory root. */
	collect(root: R, guard: WalkGuard, out: FoundFile[]): void;
	/** Loads one candidate. */
	load(file: FoundFile, root: R): void;
}

/** Walks every root in order, reporting unusable roots and incomplete searches into `diagnostics`. */
export function walkRoots<R extends WalkRoot>(
	roots: readonly R[],
	walk: RootWalk<R>,
	diagnostics: ResourceDiagnostic[],
): void {
	const warn = (path: string, message: string) => diagnostics.push({ type: "warning", kind: walk.kind, path, message });
	for (const root of roots) {
		const kind = pathKind(root.path);
		if (kind === "missing") {
			if (!root.optional) warn(root.path, `${walk.noun} path does not exist`);
		} else if (kind === "file") {
			if (root.path.toLowerCase().endsWith(".md")) walk.load({ path: root.path, declared: true }, root);
			else warn(root.path, "not a Markdown file");
		} else if (kind === "dir") {
			const guard = newWalkGuard();
			const files: FoundFile[] = [];
			walk.collect(root, guard, files);
			if (guard.truncated) warn(root.path, `search incomplete: ${guard.truncated}`);
			for (const file of files) walk.load(file, root);
		} else {
			warn(root.path, "not a file or directory");
		}
	}
}

interface Named {
	name: string;
	filePath: string;
	origin: ResourceOrigin;
}

/**
 * The first item of a name wins; a later one is a collision diagnostic. The
 * same file reached twice (a symlink, overlapping roots) is dropped silently.
 */
export class FirstOfName<T extends Named> {
	readonly items: T[] = [];
	private readonly byName = new Map<string, T>();
	private readonly files = new Set<string>();

	constructor(
		private readonly kind: "skill" | "prompt",
		/** How the item is named in the collision message, e.g. `skill "x"` or `template "/x"`. */
		private readonly label: (name: string) => string,
		private readonly diagnostics: ResourceDiagnostic[],
	) {}

	/** False when the file was seen before (the caller need not load it again). */
	firstVisit(path: string): boolean {
		const key = canonicalPath(path);
		if (this.files.has(key)) return false;
		this.files.add(key);
		return true;
	}

	add(item: T): void {
		const winner = this.byName.get(item.name);
		if (winner) {
			this.diagnostics.push({
				type: "collision",
				kind: this.kind,
				path: item.filePath,
				message: `${this.label(item.name)} skipped: the name is taken by ${winner.filePath} (${describeOrigin(winner.origin)})`,
				collision: { name: item.name, winnerPath: winner.filePath, loserPath: item.filePath },
			});
			return;
		}
		this.byName.set(item.name, item);
		this.items.push(item);
	}
}

/** What loading one kind of named resource from its roots takes (skills.ts, prompt-templates.ts). */
export interface NamedResourceKind<T extends Named, R extends WalkRoot> extends Omit<RootWalk<R>, "load"> {
	/** How an item is named in the collision message, e.g. `skill "x"` or `template "/x"`. */
	label(name: string): string;
	/** Reads one candidate file. */
	loadFile(file: FoundFile, origin: ResourceOrigin): { item?: T; diagnostics: ResourceDiagnostic[] };
}

/**
 * Loads the items of every root in precedence order: a file `include`
 * refuses (settings exclusions) is passed over silently, a file reached twice
 * is read once, and the first item of a name wins.
 */
export function loadFirstOfName<T extends Named, R extends WalkRoot>(
	roots: readonly R[],
	resource: NamedResourceKind<T, R>,
	include: ((filePath: string, origin: ResourceOrigin) => boolean) | undefined,
): LoadResult<T> {
	const diagnostics: ResourceDiagnostic[] = [];
	const found = new FirstOfName<T>(resource.kind, resource.label, diagnostics);
	walkRoots(
		roots,
		{
			kind: resource.kind,
			noun: resource.noun,
			collect: resource.collect,
			load: (file, root) => {
				if (include && !include(file.path, root.origin)) return;
				if (!found.firstVisit(file.path)) return;
				const result = resource.loadFile(file, root.origin);
				diagnostics.push(...result.diagnostics);
				if (result.item) found.add(result.item);
			},
		},
		diagnostics,
	);
	return { items: found.items, diagnostics };
}

/**
 * Reads a skill or template file and parses its frontmatter. A file that
 * cannot be read is skipped with a warning; so is one whose frontmatter does
 * not parse, silently when `reportParseError` is false.
 */
export function readFrontmatterFile(
	filePath: string,
	parseYaml: YamlParse,
	warn: (message: string, field?: string, line?: number) => void,
	reportParseError = true,
): FrontmatterResult | undefined {
	const read = readResourceText(filePath);
	if (!read.ok) {
		warn(`skipped: ${read.reason}`);
		return undefined;
	}
	try {
		return parseFrontmatter(read.text, parseYaml);
	} catch (error) {
		if (reportParseError) warn(`skipped: ${(error as Error).message}`, undefined, (error as FrontmatterError).line);
		return undefined;
	}
}
