// The selectors over the built `pi` in tmux: /model switches the model of the
// next request, /tree branches (the next request carries the new branch),
// /resume reopens a session with its history.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply } from "../cli/support.js";
import { hasTmux, READY, settle, submit, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the selector tests");

describe.skipIf(!hasTmux)("selectors (tmux)", () => {
	it("/model opens the selector; choosing switches the footer and the next request's model", async () => {
		app.sb.writeModels({
			models: [
				{ id: "fake-model", contextWindow: 100000 },
				{ id: "other-model", contextWindow: 50000 },
			],
		});
		app.sb.fake.enqueue(textReply("from the other one"));
		const pi = app.start({ args: ["--model", "fake/fake-model"] });
		await pi.waitFor(READY);
		await submit(pi, "/model", "other-model");
		pi.type("other");
		await settle();
		pi.keys("Enter");
		await pi.waitFor(/other-model\s*$/m);
		await submit(pi, "hello", "from the other one");
		expect(body(app.sb.fake, 0).model).toBe("other-model");
	});

	it("/tree moves back to an earlier message; the next request carries the new branch only", async () => {
		writeFileSync(join(app.sb.agentDir, "settings.json"), JSON.stringify({ branchSummary: { skipPrompt: true } }));
		app.sb.fake.enqueue(textReply("answer one"), textReply("answer two"), textReply("answer three"));
		const pi = app.start();
		await pi.waitFor(READY);
		await submit(pi, "question one", "answer one");
		await submit(pi, "question two", "answer two");
		await submit(pi, "/tree", "Session tree");
		// Rows: question one, answer one, question two, answer two (selected: the leaf).
		pi.keys("Up", "Up", "Up");
		await settle();
		pi.keys("Enter");
		await pi.waitFor("edit it and send to branch");
		pi.keys("C-u");
		await submit(pi, "question one, take two", "answer three");
		const sent = JSON.stringify(body(app.sb.fake, 2).messages);
		expect(sent).toContain("question one, take two");
		expect(sent).not.toContain("answer one");
		expect(sent).not.toContain("question two");
	});

	it("/resume lists this directory's sessions and reopens one with its history", async () => {
		app.sb.fake.enqueue(textReply("the remembered answer"));
		const first = await app.sb.run(["-p", "remember me please"]);
		expect(first.code).toBe(0);
		const pi = app.start();
		await pi.waitFor(READY);
		await submit(pi, "/resume", "remember me please");
		pi.keys("Enter");
		const screen = await pi.waitFor("the remembered answer");
		expect(screen).toContain("Resumed");
	});
});
