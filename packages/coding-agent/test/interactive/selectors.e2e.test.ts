// The selectors over the built `pi` in tmux: /model switches the model of the
// next request, /tree branches (the next request carries the new branch),
// /resume reopens a session with its history.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, body, createSandbox, type Sandbox, textReply } from "../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "./tmux.js";

let sb: Sandbox;
let pi: TmuxPi | undefined;

beforeAll(() => {
	if (hasTmux) assertBuilt();
});
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	pi?.kill();
	pi = undefined;
	await sb.close();
});

const READY = /fake-model\s*$/m;

describe.skipIf(!hasTmux)("selectors (tmux)", () => {
	it("/model opens the selector; choosing switches the footer and the next request's model", async () => {
		sb.writeModels({
			models: [
				{ id: "fake-model", contextWindow: 100000 },
				{ id: "other-model", contextWindow: 50000 },
			],
		});
		sb.fake.enqueue(textReply("from the other one"));
		pi = startPi({ cwd: sb.cwd, env: sb.env, args: ["--model", "fake/fake-model"] });
		await pi.waitFor(READY);
		pi.type("/model");
		pi.keys("Enter");
		await pi.waitFor("other-model");
		pi.type("other");
		await new Promise((r) => setTimeout(r, 200));
		pi.keys("Enter");
		await pi.waitFor(/other-model\s*$/m);
		pi.type("hello");
		pi.keys("Enter");
		await pi.waitFor("from the other one");
		expect(body(sb.fake, 0).model).toBe("other-model");
	});

	it("/tree moves back to an earlier message; the next request carries the new branch only", async () => {
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ branchSummary: { skipPrompt: true } }));
		sb.fake.enqueue(textReply("answer one"), textReply("answer two"), textReply("answer three"));
		pi = startPi({ cwd: sb.cwd, env: sb.env });
		await pi.waitFor(READY);
		pi.type("question one");
		pi.keys("Enter");
		await pi.waitFor("answer one");
		pi.type("question two");
		pi.keys("Enter");
		await pi.waitFor("answer two");
		pi.type("/tree");
		pi.keys("Enter");
		await pi.waitFor("Session tree");
		// Rows: question one, answer one, question two, answer two (selected: the leaf).
		pi.keys("Up", "Up", "Up");
		await new Promise((r) => setTimeout(r, 200));
		pi.keys("Enter");
		await pi.waitFor("edit it and send to branch");
		pi.keys("C-u");
		pi.type("question one, take two");
		pi.keys("Enter");
		await pi.waitFor("answer three");
		const sent = JSON.stringify(body(sb.fake, 2).messages);
		expect(sent).toContain("question one, take two");
		expect(sent).not.toContain("answer one");
		expect(sent).not.toContain("question two");
	});

	it("/resume lists this directory's sessions and reopens one with its history", async () => {
		sb.fake.enqueue(textReply("the remembered answer"));
		const first = await sb.run(["-p", "remember me please"]);
		expect(first.code).toBe(0);
		pi = startPi({ cwd: sb.cwd, env: sb.env });
		await pi.waitFor(READY);
		pi.type("/resume");
		pi.keys("Enter");
		await pi.waitFor("remember me please");
		pi.keys("Enter");
		const screen = await pi.waitFor("the remembered answer");
		expect(screen).toContain("Resumed");
	});
});
