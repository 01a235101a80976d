import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentTool, AgentToolResult } from "@pi/agent-core";
import { afterEach } from "vitest";

const dirs: string[] = [];

/** A fresh temp dir removed after the test. */
export function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-tools-"));
	dirs.push(dir);
	return dir;
}

afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function text(result: AgentToolResult<unknown>): string {
	return result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("");
}

// biome-ignore lint/suspicious/noExplicitAny: tests call tools of any schema
export async function run(tool: AgentTool<any, any>, args: Record<string, unknown>, signal?: AbortSignal) {
	const prepared = tool.prepareArguments ? tool.prepareArguments(args) : args;
	return tool.execute("call-1", prepared, signal, undefined);
}

/** The error message of a failing tool call (agent-core turns throws into error results). */
// biome-ignore lint/suspicious/noExplicitAny: tests call tools of any schema
export async function runError(tool: AgentTool<any, any>, args: Record<string, unknown>): Promise<string> {
	try {
		await run(tool, args);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error("expected the tool call to fail");
}

/** Fails (instead of hanging the suite) when a promise does not settle in time. */
export async function within<T>(ms: number, p: Promise<T>): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
	});
	try {
		return await Promise.race([p, timeout]);
	} finally {
		clearTimeout(timer);
	}
}
