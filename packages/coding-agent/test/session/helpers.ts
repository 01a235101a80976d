import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, UserMessage } from "@pi/ai";
import { afterEach } from "vitest";

const dirs: string[] = [];

/** A fresh temp dir, removed after the test. */
export function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-session-test-"));
	dirs.push(dir);
	return dir;
}

afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A small deterministic PRNG (mulberry32), so a failure names a seed that reproduces it. */
export function rng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export function user(text: string, timestamp = 1_700_000_000_000): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp };
}

export function assistant(text: string, model = "m1", provider = "p1"): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "openai-completions",
		provider,
		model,
		usage: {
			input: 1,
			output: 1,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 2,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "stop",
		timestamp: 1_700_000_000_001,
	};
}

export function lines(path: string): string[] {
	return readFileSync(path, "utf8").split("\n");
}

export function jsonLines(path: string): Record<string, unknown>[] {
	return lines(path)
		.filter((l) => l.length > 0)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Text of each message in a projection, for compact assertions. */
export function texts(messages: { role: string; content?: unknown; summary?: unknown }[]): string[] {
	return messages.map((m) => {
		if (m.role === "compactionSummary" || m.role === "branchSummary") return `${m.role}:${String(m.summary)}`;
		const c = m.content;
		if (typeof c === "string") return `${m.role}:${c}`;
		if (Array.isArray(c)) {
			return `${m.role}:${c.map((b: { type: string; text?: string }) => (b.type === "text" ? b.text : `[${b.type}]`)).join("")}`;
		}
		return m.role;
	});
}
