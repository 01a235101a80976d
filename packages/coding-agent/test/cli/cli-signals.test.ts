// SIGTERM during a streaming response: the run is aborted, the aborted reply is
// recorded, and the process exits 143 promptly.
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { spawnPi, useCliSandbox } from "./support.js";

const sb = useCliSandbox();

describe("signals", () => {
	it("SIGTERM aborts the run, records it, and exits 143", async () => {
		const partial = new ChatStream({ model: "fake-model" }).role().text("Partial answ").script();
		sb.fake.enqueue({ ...partial, hangAfterBytes: partial.bytes.length });
		const { child, stderr } = spawnPi(sb, ["-p", "--model", "fake/fake-model", "long task"]);
		while (sb.fake.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
		await new Promise((r) => setTimeout(r, 100));
		const t0 = Date.now();
		child.kill("SIGTERM");
		const [code] = await once(child, "close");
		expect(code).toBe(143);
		expect(Date.now() - t0).toBeLessThan(3000);
		expect(stderr()).toContain("aborted");
		const root = join(sb.agentDir, "sessions");
		const [project] = readdirSync(root);
		const [file] = readdirSync(join(root, project));
		const entries = readFileSync(join(root, project, file), "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l));
		const last = entries.at(-1);
		expect(last.message).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});
});
