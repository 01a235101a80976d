// `pi install|remove|uninstall|update|list`: pi packages from a shell, without
// a session. Files are installed first and the settings entry written last
// (under the settings lock, only the `packages` key), so a failure or an
// interrupt leaves settings naming only packages that are there. Every
// failure is one line on stderr naming the package and the reason, exit 1.
import { statSync } from "node:fs";
import { basename, relative } from "node:path";
import { createInterface } from "node:readline";
import { isPlainObject, readJsonFile } from "../../config/json-file.js";
import { agentPaths, getAgentDir } from "../../config/paths.js";
import { resolveProjectTrust, saveProjectTrust } from "../../config/project-trust.js";
import type { PackageSource } from "../../config/settings-schema.js";
import {
	type InstallContext,
	installedPath,
	installedVersion,
	installPackage,
	isInstalled,
	uninstallPackage,
} from "../../packages/install.js";
import { type PackageItems, RESOURCE_KINDS, readPackage } from "../../packages/manifest.js";
import {
	editPackageEntries,
	entrySource,
	findEntry,
	type PackageScope,
	readPackageEntries,
	type SettingsLocation,
	settingsLocation,
} from "../../packages/settings-file.js";
import { type ParsedSource, parseSource } from "../../packages/source.js";
import { updatePackage } from "../../packages/update.js";
import { VERSION } from "../../version.js";
import type { CommandIo } from "./io.js";

const HELP: Record<string, string> = {
	install: `Usage: pi install <source> [-l]

Installs a pi package and adds it to settings.

Sources:
  npm:<name>[@<version>]        from the npm registry (a version pins it)
  git:<host>/<path>[@<ref>]     a git repository over https (a tag or commit pins it)
  https://… ssh://… file://…    any git URL, optionally ending in @<ref>
  <path>                        a local directory (or one extension file), used in place

Options:
  -l, --local         Write the project's .pi/settings.json (loaded only after the project is trusted)
  -a, --approve       Trust this project for this command (needed with -l in an untrusted project
                      when there is no terminal to ask in)
  -na, --no-approve   Do not trust it (-l then refuses)
  -h, --help          Show this help

A project that is not trusted is never written to or installed into without asking: pi asks
whether to trust it (in a terminal) or refuses.

Before the package is added, pi lists what it brings. Extensions run code with your permissions:
review third-party packages before installing them.
`,
	remove: `Usage: pi remove <source> [-l]     (alias: pi uninstall)

Removes a package's settings entry and its installed files (local paths are left on disk).

Options:
  -l, --local         Use the project's .pi/settings.json
  -a, --approve       Trust this project for this command
  -na, --no-approve   Do not trust it (-l then refuses)
  -h, --help          Show this help
`,
	update: `Usage: pi update [<source>|self|pi] [--self|--extensions|--models|--all] [--extension <source>] [--force]

Without a target, updates pi itself; with one, installed packages.

Targets:
  (none), self, pi, --self   pi itself: the newest version in the npm registry, installed by the
                             package manager that installed pi (or PI_SELF_UPDATE_COMMAND /
                             the selfUpdateCommand setting)
  --extensions               every configured package (the project's only when it is trusted)
  <source>, --extension <s>  one configured package
  --all                      pi and every configured package
  --models                   nothing to refresh: the model catalog ships inside pi

Unpinned npm packages go to the newest version, git packages to the remote's branch; pinned
ones (npm:<name>@<version>, a git tag or commit) are skipped. A new version that does not
install or whose manifest is bad is not kept: the previous one stays.

Options:
  --force             Reinstall pi even when it is the newest version
  -a, --approve       Trust this project's .pi/settings.json packages for this command
  -na, --no-approve   Leave the project's packages out
  -h, --help          Show this help
`,
	list: `Usage: pi list

Lists the packages in the user settings (~/.pi/agent/settings.json) and the project's
.pi/settings.json, where they are installed and what they bring.

Options:
  -a, --approve       Show the project's packages as loaded (trusted) for this command
  -na, --no-approve   Show them as not loaded
  -h, --help          Show this help
`,
};

class UsageError extends Error {}

interface Parsed {
	positional: string[];
	local: boolean;
	help: boolean;
	/** --approve (true) / --no-approve (false). */
	approve?: boolean;
	extensions: boolean;
	self: boolean;
	models: boolean;
	all: boolean;
	force: boolean;
	extension?: string;
}

function parse(argv: readonly string[], allowed: readonly string[]): Parsed {
	const out: Parsed = {
		positional: [],
		local: false,
		help: false,
		extensions: false,
		self: false,
		models: false,
		all: false,
		force: false,
	};
	const update = allowed.includes("update");
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "-h" || arg === "--help") out.help = true;
		else if ((arg === "-l" || arg === "--local") && allowed.includes("local")) out.local = true;
		else if (arg === "-a" || arg === "--approve") out.approve = true;
		else if (arg === "-na" || arg === "--no-approve") out.approve = false;
		else if (update && arg === "--extensions") out.extensions = true;
		else if (update && arg === "--self") out.self = true;
		else if (update && arg === "--models") out.models = true;
		else if (update && arg === "--all") out.all = true;
		else if (update && arg === "--force") out.force = true;
		else if (update && arg === "--extension") {
			const value = argv[++i];
			if (value === undefined || value.startsWith("-")) throw new UsageError("--extension needs a package source");
			out.extension = value;
		} else if (arg.startsWith("-") && arg.length > 1) throw new UsageError(`unknown option ${arg}`);
		else out.positional.push(arg);
	}
	return out;
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? "" : "s"}`;
}

const KIND_NOUN: Record<string, string> = {
	extensions: "extension",
	skills: "skill",
	prompts: "prompt template",
	themes: "theme",
};

/** "2 extensions, 1 skill" (or "nothing pi can load"). */
export function countItems(items: PackageItems): string {
	const parts = RESOURCE_KINDS.filter((k) => items[k].length > 0).map((k) => plural(items[k].length, KIND_NOUN[k]));
	return parts.length > 0 ? parts.join(", ") : "nothing pi can load";
}

function itemsOf(path: string, source: ParsedSource): PackageItems {
	if (source.type === "local" && !isDir(path)) {
		return { extensions: [basename(path)], skills: [], prompts: [], themes: [] };
	}
	return readPackage(path).items;
}

function isDir(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

function context(io: CommandIo, agentDir: string): InstallContext {
	const npmCommand = userSetting(agentDir, "npmCommand");
	const valid = Array.isArray(npmCommand) && npmCommand.every((a) => typeof a === "string");
	return { agentDir, cwd: io.cwd, env: io.env, npmCommand: valid ? (npmCommand as string[]) : undefined };
}

function trusted(io: CommandIo, agentDir: string, approve?: boolean): boolean {
	return resolveProjectTrust({
		cwd: io.cwd,
		agentDir,
		approve,
		defaultProjectTrust: userSetting(agentDir, "defaultProjectTrust"),
	}).trusted;
}

/** One key of the user settings file (commands read no project settings before trust). */
function userSetting(agentDir: string, key: string): unknown {
	const file = readJsonFile(agentPaths(agentDir).settings);
	return file.kind === "ok" && isPlainObject(file.value) ? file.value[key] : undefined;
}

/** A local path as it goes into settings: relative to a project's .pi/, absolute for the user. */
function storedSpec(source: ParsedSource, location: SettingsLocation): string {
	if (source.type !== "local") return source.spec;
	if (location.scope === "user") return source.path;
	const rel = relative(location.baseDir, source.path);
	return rel.startsWith(".") ? rel : `./${rel}`;
}

/** The answer typed, or undefined when input ended first (Ctrl+D): then nothing is done. */
async function ask(io: CommandIo, question: string): Promise<string | undefined> {
	const rl = createInterface({ input: io.stdin, output: io.stdout });
	try {
		const answer = await new Promise<string | undefined>((resolve) => {
			rl.once("close", () => resolve(undefined));
			rl.question(question, resolve);
		});
		if (answer === undefined) io.stdout.write("\n");
		return answer?.trim();
	} finally {
		rl.close();
	}
}

async function confirm(io: CommandIo, question: string): Promise<boolean> {
	if (!io.stdin.isTTY) return true;
	const answer = await ask(io, question);
	return answer !== undefined && !/^n/i.test(answer);
}

/**
 * `-l` writes the project's .pi/settings.json and installs into its .pi/:
 * only in a trusted project. An untrusted one (no decision yet) is asked about
 * in a terminal (yes saves the decision, as the app's question does) and
 * refused without one; a saved "no" or --no-approve refuses. Nothing in the
 * project is read or run before this.
 */
async function projectWriteAllowed(p: Parsed, io: CommandIo, agentDir: string, what: string): Promise<boolean> {
	const trust = resolveProjectTrust({
		cwd: io.cwd,
		agentDir,
		approve: p.approve,
		defaultProjectTrust: userSetting(agentDir, "defaultProjectTrust"),
	});
	if (trust.trusted) return true;
	const refuse = (why: string) => {
		io.stderr.write(
			`Error: ${why}; ${what}. Trust the project first (start pi in it and answer the trust question), or pass --approve to trust it for this command.\n`,
		);
		return false;
	};
	if (trust.source === "cli") return refuse(`--no-approve was given for ${io.cwd}`);
	if (trust.source === "saved") return refuse(`you chose not to trust ${io.cwd}`);
	if (!io.stdin.isTTY) return refuse(`${io.cwd} is not a trusted project and there is no terminal to ask in`);
	io.stdout.write(
		`${io.cwd} is not a trusted project: its .pi/ settings, extensions and packages do not load.\n` +
			"With -l pi writes its .pi/settings.json and installs into its .pi/, and the project's packages load from then on.\n",
	);
	if (!/^y/i.test((await ask(io, "Trust this project? [y/N] ")) ?? "")) {
		io.stdout.write(`Not trusted; ${what}.\n`);
		return false;
	}
	saveProjectTrust(agentDir, io.cwd, true);
	return true;
}

async function runInstall(p: Parsed, io: CommandIo, agentDir: string): Promise<number> {
	if (p.positional.length !== 1) throw new UsageError("pi install takes one source");
	if (p.local && !(await projectWriteAllowed(p, io, agentDir, "nothing was installed"))) return 1;
	const location = settingsLocation(p.local ? "project" : "user", agentDir, io.cwd);
	const source = parseSource(p.positional[0], io.cwd);
	const spec = storedSpec(source, location);
	const ctx = context(io, agentDir);
	const wasInstalled = source.type !== "local" && isInstalled(source, location.scope, ctx);
	io.stdout.write(`Installing ${source.spec}…\n`);
	let path: string;
	try {
		path = await installPackage(source, location.scope, ctx);
	} catch (error) {
		io.stderr.write(`Error: could not install ${source.spec}: ${(error as Error).message}\n`);
		return 1;
	}
	let items: PackageItems;
	try {
		items = itemsOf(path, source);
	} catch (error) {
		if (!wasInstalled) await uninstallPackage(source, location.scope, ctx).catch(() => {});
		io.stderr.write(`Error: ${source.spec} was not added: ${(error as Error).message}\n`);
		return 1;
	}
	const version = installedVersion(path);
	io.stdout.write(`${source.spec}${version ? ` (${version})` : ""} brings ${countItems(items)}:\n`);
	for (const kind of RESOURCE_KINDS) for (const item of items[kind]) io.stdout.write(`  ${KIND_NOUN[kind]}: ${item}\n`);
	if (items.extensions.length > 0) {
		io.stdout.write("Extensions run code with your permissions every time pi starts.\n");
	}
	if (!(await confirm(io, `Add it to ${location.file}? [Y/n] `))) {
		if (!wasInstalled) await uninstallPackage(source, location.scope, ctx).catch(() => {});
		io.stdout.write("Not added.\n");
		return 1;
	}
	try {
		await editPackageEntries(location.file, (entries) => {
			const at = findEntry(entries, source, location.baseDir);
			if (at === -1) return [...entries, spec];
			const old = entries[at];
			entries[at] = typeof old === "string" ? spec : { ...old, source: spec };
			return entries;
		});
	} catch (error) {
		io.stderr.write(`Error: ${source.spec} is installed but settings were not changed: ${(error as Error).message}\n`);
		return 1;
	}
	io.stdout.write(`Added ${spec} to ${location.file}\n`);
	if (location.scope === "project" && !trusted(io, agentDir)) {
		io.stdout.write(
			"Note: pi loads this project's .pi/settings.json only once it is trusted: start pi here and answer the trust question.\n",
		);
	}
	return 0;
}

async function runRemove(p: Parsed, io: CommandIo, agentDir: string): Promise<number> {
	if (p.positional.length !== 1) throw new UsageError("pi remove takes one source");
	if (p.local && !(await projectWriteAllowed(p, io, agentDir, "nothing was removed"))) return 1;
	const location = settingsLocation(p.local ? "project" : "user", agentDir, io.cwd);
	const source = parseSource(p.positional[0], io.cwd);
	let removed: PackageSource | undefined;
	try {
		await editPackageEntries(location.file, (entries) => {
			const at = findEntry(entries, source, location.baseDir);
			if (at === -1) return undefined;
			removed = entries[at];
			return entries.filter((_, i) => i !== at);
		});
	} catch (error) {
		io.stderr.write(`Error: could not remove ${source.spec}: ${(error as Error).message}\n`);
		return 1;
	}
	if (!removed) {
		const other = settingsLocation(p.local ? "user" : "project", agentDir, io.cwd);
		const elsewhere = findEntry(readPackageEntries(other.file), source, other.baseDir) !== -1;
		const hint = elsewhere ? ` (it is in ${other.file}${p.local ? "; drop -l" : "; add -l"})` : "";
		io.stderr.write(`Error: ${source.spec} is not installed in ${location.file}${hint}\n`);
		return 1;
	}
	const stored = parseSource(entrySource(removed), location.baseDir);
	try {
		await uninstallPackage(stored, location.scope, context(io, agentDir));
	} catch (error) {
		io.stderr.write(
			`Warning: removed ${entrySource(removed)} from settings, but its files could not be deleted: ${(error as Error).message}\n`,
		);
		return 1;
	}
	io.stdout.write(`Removed ${entrySource(removed)} from ${location.file}\n`);
	return 0;
}

interface Target {
	entry: PackageSource;
	location: SettingsLocation;
}

function configuredTargets(io: CommandIo, agentDir: string, withProject: boolean): Target[] {
	const scopes: PackageScope[] = withProject ? ["project", "user"] : ["user"];
	return scopes.flatMap((scope) => {
		const location = settingsLocation(scope, agentDir, io.cwd);
		return readPackageEntries(location.file).map((entry) => ({ entry, location }));
	});
}

type UpdateTarget = { self: boolean; packages: boolean; source?: string; models: boolean };

function updateTarget(p: Parsed): UpdateTarget {
	if (p.positional.length > 1) throw new UsageError("pi update takes at most one target");
	const word = p.positional[0];
	const selfWord = word === "self" || word === "pi";
	const source = p.extension ?? (selfWord ? undefined : word);
	if (p.extension !== undefined && word !== undefined && !selfWord) {
		throw new UsageError("give one package: a source or --extension <source>");
	}
	if (p.models && (p.self || p.all || p.extensions || source !== undefined || selfWord)) {
		throw new UsageError("--models goes alone");
	}
	if (p.models) return { self: false, packages: false, models: true };
	const packages = p.all || p.extensions || source !== undefined;
	const self = p.all || p.self || selfWord || !packages;
	return { self, packages, source, models: false };
}

async function runUpdate(p: Parsed, io: CommandIo, agentDir: string): Promise<number> {
	const target = updateTarget(p);
	if (target.models) {
		io.stdout.write(
			"Nothing to refresh: pi's model catalog is built into pi (it works offline), so it changes when pi is updated (pi update). " +
				"Custom providers and models are read from models.json at every start.\n",
		);
		return 0;
	}
	let code = 0;
	if (target.packages) code = await updatePackages(p, target.source, io, agentDir);
	else io.stdout.write("Packages are not updated: pi update --extensions does that (--all: pi and packages).\n");
	if (target.self) {
		const { selfUpdate } = await import("./self-update.js");
		const selfCode = await selfUpdate(
			{
				version: VERSION,
				force: p.force,
				npmCommand: context(io, agentDir).npmCommand,
				settingsCommand: userSetting(agentDir, "selfUpdateCommand"),
				scriptPath: process.argv[1],
			},
			io,
		);
		if (selfCode !== 0) code = selfCode;
	}
	return code;
}

async function updatePackages(p: Parsed, only: string | undefined, io: CommandIo, agentDir: string): Promise<number> {
	const withProject = trusted(io, agentDir, p.approve);
	let targets = configuredTargets(io, agentDir, withProject);
	if (only !== undefined) {
		const wanted = parseSource(only, io.cwd);
		targets = targets.filter((t) => findEntry([t.entry], wanted, t.location.baseDir) === 0);
		if (targets.length === 0) {
			io.stderr.write(`Error: ${wanted.spec} is not a configured package (pi list shows them)\n`);
			return 1;
		}
	}
	if (targets.length === 0) {
		io.stdout.write("No packages configured.\n");
		return 0;
	}
	if (!withProject) {
		const project = settingsLocation("project", agentDir, io.cwd);
		if (readPackageEntries(project.file).length > 0) {
			io.stdout.write(`Skipping the packages in ${project.file}: the project is not trusted.\n`);
		}
	}
	const ctx = context(io, agentDir);
	let failed = 0;
	for (const t of targets) {
		const spec = entrySource(t.entry);
		try {
			const source = parseSource(spec, t.location.baseDir);
			if (source.type !== "local" && !isInstalled(source, t.location.scope, ctx)) {
				const path = await installPackage(source, t.location.scope, ctx);
				readPackage(path);
				io.stdout.write(`${spec}: installed${installedVersion(path) ? ` ${installedVersion(path)}` : ""}\n`);
				continue;
			}
			const r = await updatePackage(source, t.location.scope, ctx);
			if (r.status === "pinned") io.stdout.write(`${spec}: pinned, skipped\n`);
			else if (r.status === "local") io.stdout.write(`${spec}: local path, nothing to update\n`);
			else if (r.status === "unchanged") io.stdout.write(`${spec}: up to date${r.to ? ` (${r.to})` : ""}\n`);
			else io.stdout.write(`${spec}: updated ${r.from ?? "?"} → ${r.to ?? "?"}\n`);
		} catch (error) {
			failed++;
			io.stderr.write(`Error: could not update ${spec}: ${(error as Error).message}\n`);
		}
	}
	return failed > 0 ? 1 : 0;
}

function runList(p: Parsed, io: CommandIo, agentDir: string): number {
	const ctx = context(io, agentDir);
	let any = false;
	const isTrusted = trusted(io, agentDir, p.approve);
	for (const scope of ["user", "project"] as const) {
		const location = settingsLocation(scope, agentDir, io.cwd);
		const entries = readPackageEntries(location.file);
		if (entries.length === 0) continue;
		any = true;
		const note = scope === "project" && !isTrusted ? " — not loaded: the project is not trusted" : "";
		io.stdout.write(`${scope === "user" ? "User" : "Project"} packages (${location.file})${note}:\n`);
		for (const entry of entries) {
			const spec = entrySource(entry);
			const filtered = typeof entry === "object" && RESOURCE_KINDS.some((k) => entry[k] !== undefined);
			try {
				const source = parseSource(spec, location.baseDir);
				const path = installedPath(source, scope, ctx);
				if (source.type !== "local" && !isInstalled(source, scope, ctx)) {
					io.stdout.write(`  ${spec}\n    not installed (pi installs it on the next start, or run pi update)\n`);
					continue;
				}
				const version = installedVersion(path);
				let brings: string;
				try {
					brings = countItems(itemsOf(path, source));
				} catch (error) {
					brings = `unusable: ${(error as Error).message}`;
				}
				io.stdout.write(`  ${spec}${version ? ` (${version})` : ""}\n    ${path}\n    ${brings}`);
				io.stdout.write(filtered ? " (narrowed by settings)\n" : "\n");
			} catch (error) {
				io.stdout.write(`  ${spec}\n    invalid: ${(error as Error).message}\n`);
			}
		}
	}
	if (!any) io.stdout.write("No packages installed. Add one with pi install <source>.\n");
	return 0;
}

/** Entry point for install/remove/uninstall/update/list (the name picks the command). */
export function packageCommand(name: "install" | "remove" | "update" | "list") {
	return async (argv: readonly string[], io: CommandIo): Promise<number> => {
		const agentDir = getAgentDir(io.env);
		try {
			const allowed = name === "install" || name === "remove" ? ["local"] : name === "update" ? ["update"] : [];
			const p = parse(argv, allowed);
			if (p.help) {
				io.stdout.write(HELP[name]);
				return 0;
			}
			if (name === "install") return await runInstall(p, io, agentDir);
			if (name === "remove") return await runRemove(p, io, agentDir);
			if (name === "update") return await runUpdate(p, io, agentDir);
			if (p.positional.length > 0) throw new UsageError("pi list takes no arguments");
			return runList(p, io, agentDir);
		} catch (error) {
			const message = (error as Error).message;
			io.stderr.write(`Error: ${message}\n`);
			if (error instanceof UsageError) io.stderr.write(`\n${HELP[name]}`);
			return 1;
		}
	};
}
