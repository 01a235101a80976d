// A session holding every kind of entry the export renders, with hostile
// text in the places injection would hurt: a prompt with <script>, model
// output with inline HTML and event handlers, a file name with quotes.
import { writeFileSync } from "node:fs";
import type { SessionEntry, SessionHeader } from "../../src/session/types.js";

export const PROMPT = "Please fix the parser bug";
export const INJECT_PROMPT = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">`;
export const MODEL_HTML = `<b onclick="window.__pwned=3">bold?</b> <iframe src="https://example.invalid/"></iframe>`;
export const QUOTED_FILE = `src/we"ird'name</title>.ts`;
export const ANSWER = "The parser now handles nested brackets";
export const BASH_OUTPUT = "tests passed: 42";
export const THINKING = "I should look at the tokenizer first";
export const OTHER_BRANCH_ANSWER = "An alternative answer on the abandoned branch";
export const COMPACTION_SUMMARY = "Earlier we set up the project";
export const BRANCH_SUMMARY = "We tried a regex approach and dropped it";
export const SESSION_NAME = `Parser "fix" <session>`;
export const LABEL = "checkpoint-1";
/** What `/skill:setup-project with **npm** and \`tsc\`` sends: the skill's instructions, then the user's words (markdown). */
export const SKILL_INSTRUCTIONS = "Run the project's setup script before anything else.";
export const SKILL_PROMPT = `<skill name="setup-project" location="/skills/setup-project/SKILL.md">\nReferences are relative to /skills/setup-project.\n\n${SKILL_INSTRUCTIONS}\n</skill>\n\nSet up the project with **npm** and \`tsc\``;
/** 1×1 PNG. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const usage = (cost: number) => ({
	input: 1200,
	output: 80,
	cacheRead: 300,
	cacheWrite: 0,
	totalTokens: 1580,
	cost: { input: cost / 2, output: cost / 2, cacheRead: 0, cacheWrite: 0, total: cost },
});

export function richSession(): { header: SessionHeader; entries: SessionEntry[] } {
	const header: SessionHeader = {
		type: "session",
		version: 3,
		id: "0190f000-0000-7000-8000-00000000beef",
		timestamp: "2026-11-30T10:00:00.000Z",
		cwd: "/home/user/project",
	};
	let n = 0;
	const entries: SessionEntry[] = [];
	const add = (parentId: string | null, body: Record<string, unknown>): string => {
		const id = `e${(++n).toString(16).padStart(7, "0")}`;
		entries.push({
			id,
			parentId,
			timestamp: new Date(Date.UTC(2026, 10, 30, 10, 0, n)).toISOString(),
			...body,
		} as SessionEntry);
		return id;
	};
	const assistant = (content: unknown[], stopReason = "stop", extra: Record<string, unknown> = {}) => ({
		type: "message",
		message: {
			role: "assistant",
			content,
			api: "openai-completions",
			provider: "fake",
			model: "fake-model",
			usage: usage(0.0123),
			stopReason,
			timestamp: 1795990044665 + n,
			...extra,
		},
	});
	const tool = (toolCallId: string, toolName: string, content: unknown[], details?: unknown, isError = false) => ({
		type: "message",
		message: { role: "toolResult", toolCallId, toolName, content, details, isError, timestamp: 1795990044700 + n },
	});
	let p = add(null, { type: "model_change", provider: "fake", modelId: "fake-model" });
	p = add(p, { type: "thinking_level_change", thinkingLevel: "medium" });
	p = add(p, {
		type: "message",
		message: { role: "user", content: [{ type: "text", text: SKILL_PROMPT }], timestamp: 1 },
	});
	p = add(p, assistant([{ type: "text", text: "Done setting up." }]));
	const keep = add(p, {
		type: "message",
		message: {
			role: "user",
			content: [
				{ type: "text", text: `${PROMPT}\n\n${INJECT_PROMPT}` },
				{ type: "image", mimeType: "image/png", data: PNG },
			],
			timestamp: 2,
		},
	});
	p = add(keep, {
		type: "compaction",
		summary: `## Goal\n${COMPACTION_SUMMARY}`,
		firstKeptEntryId: keep,
		tokensBefore: 45000,
	});
	const fork = add(
		p,
		assistant(
			[
				{ type: "thinking", thinking: THINKING },
				{ type: "text", text: `Looking at it. ${MODEL_HTML}\n\n\`\`\`ts\nconst x: number = 1; // comment\n\`\`\`` },
				{ type: "toolCall", id: "call_bash", name: "bash", arguments: { command: "npm test" } },
				{
					type: "toolCall",
					id: "call_edit",
					name: "edit",
					arguments: { path: QUOTED_FILE, edits: [{ oldText: "a", newText: "b" }] },
				},
				{ type: "toolCall", id: "call_read", name: "read", arguments: { path: "logo.png" } },
			],
			"toolUse",
		),
	);
	p = add(fork, tool("call_bash", "bash", [{ type: "text", text: BASH_OUTPUT }]));
	p = add(
		p,
		tool("call_edit", "edit", [{ type: "text", text: `Edited ${QUOTED_FILE}` }], {
			diff: "@@ -1,3 +1,3 @@\n context line\n-const depth = 0;\n+const depth = stack.length;\n tail",
			firstChangedLine: 2,
		}),
	);
	p = add(
		p,
		tool("call_read", "read", [
			{ type: "text", text: "Read image file [image/png]" },
			{ type: "image", mimeType: "image/png", data: PNG },
		]),
	);
	const leaf = add(
		p,
		assistant([{ type: "text", text: `${ANSWER}.\n\n- one\n- **two**\n\n| a | b |\n|---|---|\n| 1 | 2 |` }]),
	);
	add(leaf, { type: "label", targetId: leaf, label: LABEL });
	// The abandoned branch: another answer from the same point.
	const other = add(fork, assistant([{ type: "text", text: OTHER_BRANCH_ANSWER }]));
	// Back on the main line: a branch summary of the abandoned branch, a name.
	const summary = add(leaf, { type: "branch_summary", fromId: other, summary: BRANCH_SUMMARY });
	add(summary, { type: "session_info", name: SESSION_NAME });
	return { header, entries };
}

export function writeSessionFile(path: string, session = richSession()): void {
	writeFileSync(path, `${[session.header, ...session.entries].map((e) => JSON.stringify(e)).join("\n")}\n`);
}

/**
 * A long session for the lazy-rendering checks: `turns` user/assistant pairs
 * (~600 bytes each) on one line of work, and one side branch leaving from
 * the middle. Entry text says where it is (`turn <n>`), so the page can be
 * asked which part of the session it shows.
 */
export function longSession(turns: number): { header: SessionHeader; entries: SessionEntry[] } {
	const header: SessionHeader = {
		type: "session",
		version: 3,
		id: `0190f000-0000-7000-8000-${turns.toString(16).padStart(12, "0")}`,
		timestamp: "2026-11-30T10:00:00.000Z",
		cwd: "/home/user/project",
	};
	const entries: SessionEntry[] = [];
	const filler = "lorem ipsum dolor sit amet ".repeat(10);
	let parent: string | null = null;
	for (let t = 0; t < turns; t++) {
		const ts = new Date(Date.UTC(2026, 10, 30, 10, 0, 0) + t * 1000).toISOString();
		const u = `u${t}`;
		entries.push({
			type: "message",
			id: u,
			parentId: parent,
			timestamp: ts,
			message: { role: "user", content: [{ type: "text", text: `turn ${t} question ${filler}` }], timestamp: t },
		} as SessionEntry);
		const a = `a${t}`;
		entries.push({
			type: "message",
			id: a,
			parentId: u,
			timestamp: ts,
			message: {
				role: "assistant",
				content: [{ type: "text", text: `turn ${t} answer ${filler}` }],
				api: "openai-completions",
				provider: "fake",
				model: "fake-model",
				usage: usage(0.001),
				stopReason: "stop",
				timestamp: t,
			},
		} as SessionEntry);
		parent = a;
		if (t === Math.floor(turns / 2)) {
			// Written right after its parent, so the active leaf (the file's last entry) stays on the main line.
			entries.push({
				type: "message",
				id: "side",
				parentId: a,
				timestamp: "2026-11-30T12:00:00.000Z",
				message: { role: "user", content: [{ type: "text", text: "side branch question" }], timestamp: 0 },
			} as SessionEntry);
		}
	}
	return { header, entries };
}
