// Raw JSON lines into the built `pi --mode rpc`: bad input gets an error
// response naming the problem and the process keeps serving; strings with
// U+2028/U+2029, CR and lone surrogates round-trip; the prompt response comes
// before its run's events; a paused reader loses nothing; EOF ends cleanly.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { useCliSandbox } from "../cli/support.js";
import { hangingReply, killRaw, type RawPi, responseTo, spawnRaw, textReply } from "./support.js";

let pi: RawPi | undefined;
const sb = useCliSandbox({
	beforeClose: async () => {
		await killRaw(pi);
		pi = undefined;
	},
});

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe("pi --mode rpc: framing and bad input", () => {
	it("answers malformed, unknown, incomplete and mistyped commands with errors, and keeps serving", async () => {
		pi = spawnRaw(sb);
		pi.send("{not json\n");
		pi.send('"just a string"\n');
		pi.send("[1,2]\n");
		pi.send('{"id":"t0"}\n');
		pi.send('{"id":"t1","type":42}\n');
		pi.send(line({ id: "u1", type: "no_such_command" }));
		pi.send(line({ id: "m1", type: "set_model", provider: "fake" }));
		pi.send(line({ id: "w1", type: "set_auto_retry", enabled: "yes" }));
		pi.send(line({ id: "w2", type: "set_steering_mode", mode: "sometimes" }));
		pi.send(line({ id: "w3", type: "prompt", message: "x", images: [{ type: "image", data: 5 }] }));
		pi.send(line({ id: 7, type: "get_state" }));
		pi.send("\n\r\n   \n");
		pi.send(line({ id: "ok", type: "get_state" }));
		await pi.waitFor(responseTo("ok"));
		const responses = pi.records.filter((r) => r.type === "response");
		expect(responses.map((r) => [r.id, r.command, r.success, r.error])).toEqual([
			[undefined, "parse", false, expect.stringMatching(/^Failed to parse command: /)],
			[undefined, "parse", false, 'Invalid command: expected a JSON object with a "type" field, got a string'],
			[undefined, "parse", false, 'Invalid command: expected a JSON object with a "type" field, got an array'],
			["t0", "parse", false, 'Invalid command: missing field "type"'],
			["t1", "parse", false, 'Invalid command: field "type" must be a string, got a number'],
			["u1", "no_such_command", false, "Unknown command: no_such_command"],
			["m1", "set_model", false, 'Missing required field "modelId" for command "set_model"'],
			["w1", "set_auto_retry", false, 'Field "enabled" must be a boolean, got a string'],
			["w2", "set_steering_mode", false, 'Field "mode" must be one of "all", "one-at-a-time", got "sometimes"'],
			["w3", "prompt", false, 'Field "images" [0].data must be a base64 string, got a number'],
			[undefined, "get_state", false, 'Field "id" must be a string, got a number'],
			["ok", "get_state", true, undefined],
		]);
		expect(sb.fake.requests).toHaveLength(0);
		pi.child.stdin.end();
		expect(await pi.exit).toBe(0);
		expect(pi.stderr()).toBe("");
	});

	it("reassembles a command split across writes, accepts CRLF, and splits only on LF", async () => {
		pi = spawnRaw(sb);
		const text = line({ id: "p1", type: "set_session_name", name: "split" });
		pi.send(text.slice(0, 10));
		await new Promise((r) => setTimeout(r, 50));
		pi.send(text.slice(10, 25));
		await new Promise((r) => setTimeout(r, 50));
		pi.send(text.slice(25));
		await pi.waitFor(responseTo("p1"));
		pi.send(`${JSON.stringify({ id: "p2", type: "get_state" })}\r\n`);
		const state = (await pi.waitFor(responseTo("p2"))) as { data: { sessionName: string }; success: boolean };
		expect(state.success).toBe(true);
		expect(state.data.sessionName).toBe("split");
	});

	it("round-trips U+2028, U+2029, CR and lone surrogates unchanged, to the provider and back", async () => {
		const tricky = "a\u2028b\u2029c\rd\r\ne\ud800f\udc00g \u{1F600}";
		// Session names are kept on one line by the session store, so the name skips CR/LF.
		const name = "a\u2028b\u2029c\ud800f\udc00g \u{1F600}";
		sb.fake.enqueue(textReply(tricky));
		pi = spawnRaw(sb);
		// Raw U+2028/U+2029 bytes on the wire (JSON.stringify does not escape them); surrogates escaped.
		const command = line({ id: "n1", type: "set_session_name", name });
		expect(command).toContain("\u2028");
		pi.send(command);
		await pi.waitFor(responseTo("n1"));
		pi.send(line({ id: "s1", type: "get_state" }));
		const state = (await pi.waitFor(responseTo("s1"))) as { data: { sessionName: string } };
		expect(state.data.sessionName).toBe(name);
		const info = pi.records.find((r) => r.type === "session_info_changed");
		expect(info?.name).toBe(name);

		pi.send(line({ id: "p1", type: "prompt", message: tricky }));
		await pi.waitFor((r) => r.type === "agent_settled");
		// Over RPC the user message comes back exactly as sent.
		const user = pi.records.find((r) => r.type === "message_start") as { message: { content: { text: string }[] } };
		expect(user.message.content[0].text).toBe(tricky);
		// The provider request carries it too (pi-ai replaces lone surrogates, which UTF-8 cannot encode).
		const body = JSON.stringify(sb.fake.requests[0].body);
		expect(body).toContain(JSON.stringify("a\u2028b\u2029c\rd\r\ne").slice(1, -1));
		const end = pi.records.filter((r) => r.type === "message_end").at(-1) as {
			message: { content: { text: string }[] };
		};
		expect(end.message.content[0].text).toBe(tricky);
		// Every stdout line is one JSON record: nothing was split at U+2028/U+2029.
		for (const text of pi.stdout().trimEnd().split("\n")) expect(() => JSON.parse(text)).not.toThrow();
	});

	it("keeps stray stdout writes (console.log and direct writes) off the protocol stream", async () => {
		const preload = join(sb.root, "stray.mjs");
		writeFileSync(
			preload,
			// The strays are written on a signal sent once rpc mode has answered, so the check does
			// not depend on how fast the process starts.
			'process.on("SIGUSR2", () => { console.log("stray log"); process.stdout.write("stray write\\n"); });\n',
		);
		sb.env.NODE_OPTIONS = `--import=${preload}`;
		pi = spawnRaw(sb);
		pi.send(line({ id: "a", type: "get_state" }));
		await pi.waitFor(responseTo("a"));
		pi.child.kill("SIGUSR2");
		await new Promise((r) => setTimeout(r, 300));
		pi.send(line({ id: "b", type: "get_state" }));
		await pi.waitFor(responseTo("b"));
		pi.child.stdin.end();
		expect(await pi.exit).toBe(0);
		expect(pi.stderr()).toBe("stray log\nstray write\n");
		expect(pi.records.map((r) => r.id)).toEqual(["a", "b"]);
	});

	it("a client that closed its end of stderr: a stray write there (EPIPE) does not end pi; it keeps serving", async () => {
		const preload = join(sb.root, "stray.mjs");
		writeFileSync(
			preload,
			// Enough stray text that a write to the closed pipe surely fails (not only lands in its buffer).
			'process.on("SIGUSR2", () => { for (let i = 0; i < 64; i++) console.log("stray ".repeat(2000)); });\n',
		);
		sb.env.NODE_OPTIONS = `--import=${preload}`;
		pi = spawnRaw(sb);
		pi.send(line({ id: "a", type: "get_state" }));
		await pi.waitFor(responseTo("a"));
		pi.child.stderr.destroy();
		pi.child.kill("SIGUSR2");
		pi.send(line({ id: "b", type: "get_state" }));
		await pi.waitFor(responseTo("b"));
		// A second round, after the failure surely happened (it is reported a tick after the write).
		pi.child.kill("SIGUSR2");
		pi.send(line({ id: "c", type: "get_state" }));
		await pi.waitFor(responseTo("c"));
		pi.child.stdin.end();
		expect(await pi.exit).toBe(0);
		expect(pi.records.map((r) => r.id)).toEqual(["a", "b", "c"]);
	});

	it("sends the prompt response before the first event of its run", async () => {
		sb.fake.enqueue(textReply("hello"));
		pi = spawnRaw(sb);
		pi.send(line({ id: "p1", type: "prompt", message: "hi" }));
		await pi.waitFor((r) => r.type === "agent_settled");
		const types = pi.records.map((r) => (r.type === "response" ? `response:${r.id}` : r.type));
		expect(types[0]).toBe("response:p1");
		expect(types[1]).toBe("agent_start");
		expect(pi.records[0]).toEqual({
			id: "p1",
			type: "response",
			command: "prompt",
			success: true,
			data: { disposition: "started" },
		});
	});
});

describe("pi --mode rpc: back-pressure and shutdown", () => {
	it("loses no event and keeps their order while the reader is paused", async () => {
		const deltas = Array.from({ length: 3000 }, (_, i) => `token-${i.toString().padStart(4, "0")} `.repeat(4));
		sb.fake.enqueue(
			new ChatStream({ model: "fake-model" })
				.role()
				.text(...deltas)
				.finish("stop")
				.usage({ prompt_tokens: 5, completion_tokens: 3000 })
				.done()
				.script({ chunkSize: 4096 }),
		);
		pi = spawnRaw(sb);
		pi.send(line({ id: "p1", type: "prompt", message: "long please" }));
		await pi.waitFor(responseTo("p1"));
		pi.child.stdout.pause();
		await new Promise((r) => setTimeout(r, 1500));
		pi.child.stdout.resume();
		await pi.waitFor((r) => r.type === "agent_settled");
		const got = pi.records
			.filter((r) => r.type === "message_update")
			.map((r) => r.assistantMessageEvent as { type: string; delta?: string })
			.filter((a) => a.type === "text_delta")
			.map((a) => a.delta);
		expect(got).toEqual(deltas);
		const end = pi.records.filter((r) => r.type === "message_end").at(-1) as {
			message: { content: { text: string }[] };
		};
		expect(end.message.content[0].text).toBe(deltas.join(""));
	});

	it("on end of stdin finishes the current run, then exits 0", async () => {
		sb.fake.enqueue(
			new ChatStream({ model: "fake-model" })
				.role()
				.text("slow ", "but ", "complete")
				.finish("stop")
				.done()
				.script({ chunkSize: 40, delayMs: 40 }),
		);
		pi = spawnRaw(sb);
		pi.send(line({ id: "p1", type: "prompt", message: "hi" }));
		await pi.waitFor(responseTo("p1"));
		pi.child.stdin.end();
		expect(await pi.exit).toBe(0);
		const types = pi.records.map((r) => r.type);
		expect(types.at(-1)).toBe("agent_settled");
		const end = pi.records.filter((r) => r.type === "message_end").at(-1) as {
			message: { stopReason: string; content: { text: string }[] };
		};
		expect(end.message.stopReason).toBe("stop");
		expect(end.message.content[0].text).toBe("slow but complete");
	});

	it("exits 0 at once on end of stdin when idle, and 143 after SIGTERM aborts a run", async () => {
		pi = spawnRaw(sb);
		pi.child.stdin.end();
		expect(await pi.exit).toBe(0);
		expect(pi.stdout()).toBe("");

		sb.fake.enqueue(hangingReply("never ends"));
		pi = spawnRaw(sb);
		pi.send(line({ id: "p1", type: "prompt", message: "hi" }));
		await pi.waitFor((r) => r.type === "message_update");
		pi.child.kill("SIGTERM");
		expect(await pi.exit).toBe(143);
		expect(pi.records.at(-1)).toEqual({ type: "agent_settled", aborted: true });
	});
});
