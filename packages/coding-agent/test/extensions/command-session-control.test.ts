// A command's session control as 1.6.0 documents it (docs/extensions.md,
// "ctx.newSession", "ctx.fork", "ctx.switchSession", "Session replacement
// lifecycle"), through the BUILT `pi --mode rpc` with a real session dir:
//   - ctx.fork(id, { position: "at" }) asks session_before_fork with "at" and
//     continues in a new file holding the path through that entry (any entry,
//     not only a user message); "before" (default) stops before the user
//     message; a cancelled fork leaves the file and skips withSession;
//   - withSession runs after the switch, against the session now current,
//     and its sendUserMessage resolves once the run it started has ended;
//   - newSession's setup writes into the new session before withSession.
// The extension reports through ctx.ui.notify (extension_ui_request records).
// Build first.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RawPi, textReply, useRpcSandbox } from "../rpc/support.js";

const rpc = useRpcSandbox();
type Rec = Record<string, unknown>;

const EXTENSION = `
let blockForks = false;
export default function (pi) {
	const where = (ctx) => ctx.sessionManager.getSessionFile() + " leaf=" + ctx.sessionManager.getLeafId();
	pi.on("session_before_fork", (e, ctx) => {
		ctx.ui.notify("before_fork " + e.entryId + " " + e.position);
		if (blockForks) return { cancel: true };
	});
	pi.on("session_before_switch", (e, ctx) => ctx.ui.notify("before_switch " + e.reason));
	pi.registerCommand("block-forks", { handler: async (_a) => { blockForks = true; } });
	pi.registerCommand("fork-with", {
		handler: async (args, ctx) => {
			const [entryId, position] = args.split(" ");
			const result = await ctx.fork(entryId, {
				...(position ? { position } : {}),
				withSession: async (c) => c.ui.notify("with fork " + where(c)),
			});
			ctx.ui.notify("fork result " + JSON.stringify(result));
		},
	});
	pi.registerCommand("handoff", {
		handler: async (_a, ctx) => {
			const parentSession = ctx.sessionManager.getSessionFile();
			const result = await ctx.newSession({
				parentSession,
				setup: async (sm) => {
					sm.appendMessage({ role: "user", content: [{ type: "text", text: "context from before" }], timestamp: Date.now() });
				},
				withSession: async (c) => {
					c.ui.notify("with new " + where(c));
					await c.sendUserMessage("kickoff");
					c.ui.notify("kickoff answered: " + c.sessionManager.getBranch().length + " entries, idle=" + c.isIdle());
				},
			});
			ctx.ui.notify("new result " + JSON.stringify(result));
		},
	});
	pi.registerCommand("switch-with", {
		handler: async (args, ctx) => {
			const result = await ctx.switchSession(args, { withSession: async (c) => c.ui.notify("with switch " + where(c)) });
			ctx.ui.notify("switch result " + JSON.stringify(result));
		},
	});
}
`;

/** The session file's lines after the header. */
function entries(file: string): Rec[] {
	return readFileSync(file, "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l) as Rec);
}

/** `role:text` of the conversation's message entries of a session file (no recorded system prompt), in file order. */
function messages(file: string): string[] {
	return entries(file)
		.filter((e) => e.type === "message" && (e.message as { role: string }).role !== "system")
		.map((e) => {
			const m = e.message as { role: string; content: { type: string; text?: string }[] | string };
			const text = typeof m.content === "string" ? m.content : m.content.map((c) => c.text ?? "").join("");
			return `${m.role}:${text}`;
		});
}

const notices = (p: RawPi): string[] =>
	p.records.filter((r) => r.type === "extension_ui_request" && r.method === "notify").map((r) => String(r.message));

const notified = (p: RawPi, prefix: string) =>
	p.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify" && String(r.message).startsWith(prefix));

/** Runs an extension command; 1.6.0 answers the prompt once the command is done. */
async function command(p: RawPi, message: string): Promise<void> {
	expect(await p.call({ type: "prompt", message })).toMatchObject({
		success: true,
		data: { disposition: "handled" },
	});
}

const sessionFile = async (p: RawPi) => (await p.data({ type: "get_state" })).sessionFile as string;

function start(): RawPi {
	const file = join(rpc.sb.root, "session-control.js");
	writeFileSync(file, EXTENSION);
	return rpc.spawn(["-e", file]);
}

/** Two exchanges: q1/a1, q2/a2; returns the file and the entry ids by message text. */
async function twoExchanges(p: RawPi): Promise<{ file: string; id: (text: string) => string }> {
	rpc.sb.fake.enqueue(textReply("a1"), textReply("a2"));
	await p.promptAndSettle("q1");
	await p.promptAndSettle("q2");
	const file = await sessionFile(p);
	const byText = new Map<string, string>();
	for (const e of entries(file)) {
		if (e.type !== "message") continue;
		const content = (e.message as { content: { text?: string }[] | string }).content;
		byText.set(typeof content === "string" ? content : content.map((c) => c.text ?? "").join(""), e.id as string);
	}
	return { file, id: (text) => byText.get(text) as string };
}

describe("ctx.fork / newSession / switchSession from a command (built CLI, rpc)", () => {
	it('fork "at" an assistant entry: a new file with the path through it, parent recorded, withSession in it', async () => {
		const pi = start();
		const { file, id } = await twoExchanges(pi);
		await command(pi, `/fork-with ${id("a1")} at`);
		await notified(pi, "fork result");
		const forked = await sessionFile(pi);
		expect(forked).not.toBe(file);
		expect(notices(pi)).toEqual([
			`before_fork ${id("a1")} at`,
			`with fork ${forked} leaf=${id("a1")}`,
			'fork result {"cancelled":false}',
		]);
		// The new file: the old one as parent, the exchange up to and including a1 (ids kept), nothing after.
		expect(entries(forked)[0]).toMatchObject({ type: "session", parentSession: file });
		expect(messages(forked)).toEqual(["user:q1", "assistant:a1"]);
		expect(entries(forked).at(-1)?.id).toBe(id("a1"));
		// The old file is untouched.
		expect(messages(file)).toEqual(["user:q1", "assistant:a1", "user:q2", "assistant:a2"]);
		// The forked session goes on from a1: the next request carries q1/a1 only.
		rpc.sb.fake.enqueue(textReply("a3"));
		await pi.promptAndSettle("q3");
		const sent = JSON.stringify(rpc.sb.fake.requests[2].body);
		expect(sent).toContain("a1");
		expect(sent).not.toContain("q2");
		expect(messages(forked)).toEqual(["user:q1", "assistant:a1", "user:q3", "assistant:a3"]);
	}, 60_000);

	it('fork "before" (default) stops before the user message; a cancelled fork keeps the file and skips withSession', async () => {
		const pi = start();
		const { file, id } = await twoExchanges(pi);
		await command(pi, `/fork-with ${id("q2")}`);
		await notified(pi, "fork result");
		const forked = await sessionFile(pi);
		expect(notices(pi)).toEqual([
			`before_fork ${id("q2")} before`,
			`with fork ${forked} leaf=${id("a1")}`,
			'fork result {"cancelled":false}',
		]);
		expect(messages(forked)).toEqual(["user:q1", "assistant:a1"]);
		expect(entries(forked)[0]).toMatchObject({ parentSession: file });

		await command(pi, "/block-forks");
		await command(pi, `/fork-with ${id("q1")} at`);
		await notified(pi, 'fork result {"cancelled":true}');
		expect(notices(pi).slice(3)).toEqual([`before_fork ${id("q1")} at`, 'fork result {"cancelled":true}']);
		expect(await sessionFile(pi)).toBe(forked);
	}, 60_000);

	it('"before" needs a user message: an assistant entry is refused after the gate, and the session stays', async () => {
		const pi = start();
		const { file, id } = await twoExchanges(pi);
		const response = await pi.call({ type: "prompt", message: `/fork-with ${id("a1")} before` });
		await pi.waitFor((r) => r.type === "extension_error" || (r.type === "response" && r.success === false));
		const failure = pi.records.find((r) => r.type === "extension_error") ?? response;
		expect(JSON.stringify(failure)).toContain(`Invalid entry ID for forking: ${id("a1")} is not a user message`);
		expect(notices(pi)).toEqual([`before_fork ${id("a1")} before`]);
		expect(await sessionFile(pi)).toBe(file);
	}, 60_000);

	it("newSession: setup writes the new session's history; withSession's sendUserMessage resolves after its run", async () => {
		const pi = start();
		const { file } = await twoExchanges(pi);
		rpc.sb.fake.enqueue(textReply("kicked off"));
		// The command starts a run (the kickoff), so pi answers "started" rather than "handled".
		expect(await pi.call({ type: "prompt", message: "/handoff" })).toMatchObject({ success: true });
		await notified(pi, "new result");
		const fresh = await sessionFile(pi);
		expect(fresh).not.toBe(file);
		const list = notices(pi);
		expect(list[0]).toBe("before_switch new");
		expect(list[1]).toMatch(new RegExp(`^with new ${fresh} leaf=`));
		// The run the kickoff started had ended (its answer recorded) when sendUserMessage resolved.
		expect(list.slice(2)).toEqual([
			expect.stringMatching(/^kickoff answered: \d+ entries, idle=true$/),
			'new result {"cancelled":false}',
		]);
		expect(entries(fresh)[0]).toMatchObject({ type: "session", parentSession: file });
		expect(messages(fresh)).toEqual(["user:context from before", "user:kickoff", "assistant:kicked off"]);
		// The request carried setup's message before the kickoff.
		const last = rpc.sb.fake.requests[2].body as { messages: { role: string; content: unknown }[] };
		const users = last.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
		expect(users).toHaveLength(2);
		expect(users[0]).toContain("context from before");
		expect(users[1]).toContain("kickoff");
	}, 60_000);

	it("switchSession: withSession runs in the session switched to", async () => {
		const pi = start();
		const { file } = await twoExchanges(pi);
		await pi.data({ type: "new_session" });
		const other = await sessionFile(pi);
		expect(other).not.toBe(file);
		await command(pi, `/switch-with ${file}`);
		await notified(pi, "switch result");
		const lastId = entries(file).at(-1)?.id;
		expect(notices(pi).slice(-3)).toEqual([
			"before_switch resume",
			`with switch ${file} leaf=${lastId}`,
			'switch result {"cancelled":false}',
		]);
		expect(await sessionFile(pi)).toBe(file);
	}, 60_000);
});
