// The top-level README's snippets work as written: the models.json example
// answers through the built CLI (only its server address pointed at the fake
// provider), every `pi …` command in its tables uses flags `pi --help` knows,
// and the install commands are the ones global-install.test.ts runs.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { textReply, useCliSandbox } from "./support.js";

const README = readFileSync(resolve(__dirname, "../../../../README.md"), "utf8");

function blocks(lang: string): string[] {
	return [...README.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]);
}

const sb = useCliSandbox();

describe("README snippets", () => {
	it("the models.json example for a local server works without an apiKey", async () => {
		const [example] = blocks("json");
		expect(example).toBeDefined();
		const config = JSON.parse(example) as {
			providers: Record<string, { baseUrl: string; apiKey?: string; models: { id: string }[] }>;
		};
		const [name, provider] = Object.entries(config.providers)[0];
		expect(provider.apiKey).toBeUndefined();
		// Same file, with the server address of the test's fake provider (still a loopback host).
		const port = new URL(sb.fake.url).port;
		const pointed = example.replace(new URL(provider.baseUrl).host, `127.0.0.1:${port}`);
		expect(pointed).not.toBe(example);
		writeFileSync(join(sb.agentDir, "models.json"), pointed);
		sb.fake.enqueue(textReply("hello from the local model"));
		const r = await sb.run(["-p", "hi"]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout.trim()).toBe("hello from the local model");
		expect((sb.fake.requests[0].body as { model: string }).model).toBe(provider.models[0].id);
		expect(name).toBe("ollama");
	});

	it("every flag the README's commands use is one `pi --help` documents", async () => {
		const help = (await sb.run(["--help"])).stdout;
		const commands = [...README.matchAll(/`(pi(?: [^`]*)?)`/g)].map((m) => m[1]);
		expect(commands.length).toBeGreaterThan(5);
		const flags = new Set(commands.flatMap((c) => c.match(/(?<=\s)--?[a-z][a-z-]*/g) ?? []));
		expect(flags.size).toBeGreaterThan(5);
		for (const flag of flags) expect(help, `README uses ${flag}`).toMatch(new RegExp(`(^|[\\s,])${flag}[\\s,]`, "m"));
	});

	it("the install commands are the ones the global-install test runs", () => {
		const sh = blocks("sh").join("\n");
		expect(sh).toContain("npm ci && npm run build && npm install -g ./packages/coding-agent");
		expect(sh).toContain("pi --version");
	});
});
