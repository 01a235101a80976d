// The tools of one session: every tool it may use, by name (built-in, custom,
// extension), the active ones (set on the Agent), and the declaration shaper
// that decides what the next request declares (tool-loadout.ts installs it).
// A tool registered under an existing name replaces it (an extension's `read`).
import type { Agent, AgentTool } from "@pi/agent-core";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
export type AnyTool = AgentTool<any>;

export class SessionTools {
	private readonly all: Map<string, AnyTool>;
	private activeTools: AnyTool[] = [];
	private declarationShaper: ((active: readonly AnyTool[]) => AnyTool[]) | undefined;

	constructor(
		private readonly agent: Agent,
		tools: readonly AnyTool[],
		activeToolNames: readonly string[],
	) {
		this.all = new Map(tools.map((t) => [t.name, t]));
		this.setActiveByName(activeToolNames);
	}

	get active(): readonly AnyTool[] {
		return this.activeTools;
	}

	activeNames(): string[] {
		return this.activeTools.map((t) => t.name);
	}

	allTools(): AnyTool[] {
		return [...this.all.values()];
	}

	/** The active tools as the declaration shaper leaves them (some hidden, descriptions replaced). */
	declared(): AnyTool[] {
		return this.declarationShaper ? this.declarationShaper(this.activeTools) : this.activeTools;
	}

	/** Installs the declaration shaper; returns the function that removes it. */
	setDeclarationShaper(shaper: (active: readonly AnyTool[]) => AnyTool[]): () => void {
		this.declarationShaper = shaper;
		return () => {
			if (this.declarationShaper === shaper) this.declarationShaper = undefined;
		};
	}

	/** Adds (or replaces by name) tools; those in `activate` become active too. */
	add(tools: readonly AnyTool[], activate: readonly string[] = []): void {
		for (const tool of tools) this.all.set(tool.name, tool);
		this.setActiveByName([...new Set([...this.activeNames(), ...activate])]);
	}

	/** Drops tools by name; active ones are deactivated. */
	remove(names: readonly string[]): void {
		for (const name of names) this.all.delete(name);
		this.setActiveByName(this.activeNames().filter((n) => this.all.has(n)));
	}

	/** Activates the named tools (unknown names are ignored). */
	setActiveByName(names: readonly string[]): void {
		this.activeTools = names.map((n) => this.all.get(n)).filter((t): t is AnyTool => t !== undefined);
		this.agent.setTools(this.activeTools);
	}
}
