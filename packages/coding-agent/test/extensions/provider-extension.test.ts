// pi.registerProvider in 1.6.0's full shape, with real extension files:
// a custom wire protocol (streamSimple), an OAuth login that /login lists
// and whose refresh and key requests use, the object form, and
// unregisterProvider undoing all of it. The CLI tests run the BUILT pi.
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AssistantMessageEventStream } from "@pi/ai";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findLoginFlow, loginFlows, withLoginFlows } from "../../src/auth/flows.js";
import type { LoginInteraction, LoginNotice } from "../../src/auth/interaction.js";
import { AuthStorage } from "../../src/config/auth.js";
import { ModelRegistry } from "../../src/config/model-registry.js";
import type { ExtensionAPI } from "../../src/extensions/types.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession, testModel } from "../agent-session/support.js";
import { assertBuilt, createSandbox, type Sandbox } from "../cli/support.js";

const CORP = resolve(__dirname, "../fixtures/extensions/providers/corp-ai.ts");

function lastAssistantText(messages: readonly unknown[]): string {
	const m = [...messages].reverse().find((x) => (x as { role: string }).role === "assistant") as {
		content: { type: string; text?: string }[];
		errorMessage?: string;
	};
	return m.content.map((c) => c.text ?? "").join("") || `error: ${m.errorMessage}`;
}

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-provider-ext-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A session with extensions (the SDK then owns settings and resources): a throwaway folder and agent dir. */
function sdkSession(
	extensions: NonNullable<Parameters<typeof makeSession>[0]>["extensions"],
	auth = AuthStorage.inMemory({}, withLoginFlows({ env: {} })),
) {
	auth.setRuntimeApiKey("testprov", "k");
	return makeSession({
		modelRegistry: ModelRegistry.inMemory(auth, { builtins: () => [testModel()] }),
		authStorage: auth,
		cwd: dir,
		agentDir: join(dir, "agent"),
		settingsManager: undefined,
		resourceLoader: undefined,
		streamFn: undefined,
		sessionManager: SessionManager.inMemory(dir),
		extensions,
	});
}

describe("registerProvider in the SDK (real extension file)", () => {
	async function open(auth = AuthStorage.inMemory({}, withLoginFlows({ env: {} }))) {
		const s = await sdkSession({ paths: [CORP], discover: false }, auth);
		return { ...s, auth };
	}

	it("the oauth block is a login /login lists: login asks through the interaction, the store keeps its tokens", async () => {
		const { session, auth } = await open();
		try {
			const flow = findLoginFlow("corp-ai");
			expect(flow?.name).toBe("Corp AI (SSO)");
			expect(loginFlows().map((f) => f.id)).toContain("corp-ai");
			const notices: LoginNotice[] = [];
			const interaction: LoginInteraction = {
				notify: (n) => void notices.push(n),
				prompt: async (p) => (p.type === "text" && p.message === "Enter the code:" ? "4711" : ""),
				signal: new AbortController().signal,
				browser: false,
			};
			const credential = await flow?.login(interaction);
			expect(notices).toEqual([{ type: "auth_url", url: "https://sso.corp.invalid/authorize?client=pi" }]);
			expect(credential).toMatchObject({ type: "oauth", access: "acc-4711", refresh: "ref-4711" });
			if (credential) await auth.set("corp-ai", credential);
			// The request key is the extension's getApiKey of the stored tokens; the stream is its own.
			const model = session.modelRegistry.find("corp-ai", "corp-1");
			expect(model).toBeDefined();
			if (model) session.setModel(model);
			await session.prompt("hello corp");
			expect(lastAssistantText(session.messages)).toBe(
				"corp-wire key=key:acc-4711 model=corp-1 prompt=yes tools=1 said=hello corp",
			);
		} finally {
			await session.prompt("/corp-off");
			session.dispose();
		}
	});

	it("unregisterProvider (from a command) removes the models, the login and the stream", async () => {
		const { session } = await open();
		try {
			expect(session.modelRegistry.getAll().some((m) => m.provider === "corp-ai")).toBe(true);
			await session.prompt("/corp-off");
			expect(session.modelRegistry.getAll().some((m) => m.provider === "corp-ai")).toBe(false);
			expect(findLoginFlow("corp-ai")).toBeUndefined();
		} finally {
			session.dispose();
		}
	});

	it("the object form: id, api implementation with streamSimple, getModels()", async () => {
		const factory = (pi: ExtensionAPI) => {
			pi.registerProvider({
				id: "obj-ai",
				name: "Object AI",
				apiKey: "literal-key",
				getModels: () => [
					{ id: "o1", name: "O1", input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
				],
				api: {
					streamSimple(model, _context, options) {
						return failingStreamFor(model, `obj-ai got key ${options.apiKey}`);
					},
				},
			});
		};
		const s = await sdkSession({ factories: [factory], discover: false });
		try {
			const model = s.session.modelRegistry.find("obj-ai", "o1");
			expect(model?.api).toBe("obj-ai-api");
			if (model) s.session.setModel(model);
			await s.session.prompt("hi");
			expect(lastAssistantText(s.session.messages)).toBe("error: obj-ai got key literal-key");
		} finally {
			s.session.dispose();
		}
	});

	it("registering again with only { baseUrl } keeps the custom stream, its models and key (1.6.0 merges), at load and from a command", async () => {
		const factory = (pi: ExtensionAPI) => {
			pi.registerProvider("merge-ai", {
				baseUrl: "http://one.invalid",
				apiKey: "merge-key",
				api: "merge-api",
				streamSimple: (model, _context, options) =>
					failingStreamFor(model, `custom stream at ${model.baseUrl} with ${options?.apiKey}`),
				models: [{ id: "m1", name: "M1", input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
			});
			pi.registerProvider("merge-ai", { baseUrl: "http://two.invalid" });
			pi.registerCommand("move", {
				handler: async () => pi.registerProvider("merge-ai", { baseUrl: "http://three.invalid" }),
			});
		};
		const s = await sdkSession({ factories: [factory], discover: false });
		try {
			const model = s.session.modelRegistry.find("merge-ai", "m1");
			expect(model?.baseUrl).toBe("http://two.invalid");
			if (model) s.session.setModel(model);
			await s.session.prompt("hi");
			expect(lastAssistantText(s.session.messages)).toBe("error: custom stream at http://two.invalid with merge-key");
			await s.session.prompt("/move");
			const moved = s.session.modelRegistry.find("merge-ai", "m1");
			expect(moved?.api).toBe("merge-api");
			if (moved) s.session.setModel(moved);
			await s.session.prompt("again");
			expect(lastAssistantText(s.session.messages)).toBe("error: custom stream at http://three.invalid with merge-key");
		} finally {
			s.session.dispose();
		}
	});

	it("the object form: a malformed native auth block, and an images entry without generateImages, are refused at load naming the extension", async () => {
		const factory = (pi: ExtensionAPI) => {
			const register = pi.registerProvider as (provider: unknown) => void;
			register({ id: "native", auth: { apiKey: {} } });
			register({ id: "painter", images: { "media-images": {} } });
		};
		const s = await sdkSession({ factories: [factory], discover: false });
		try {
			const warnings = s.warnings.join("\n");
			expect(warnings).toMatch(/pi\.registerProvider: auth\.apiKey\.resolve of provider "native" must be a function/);
			expect(s.session.modelRegistry.getAll().some((m) => m.provider === "native")).toBe(false);
		} finally {
			s.session.dispose();
		}
		const second = await sdkSession({
			factories: [(pi) => (pi.registerProvider as (provider: unknown) => void)({ id: "painter", images: { x: {} } })],
			discover: false,
		});
		try {
			expect(second.warnings.join("\n")).toMatch(
				/pi\.registerProvider: images\["x"\] of provider "painter" needs a generateImages function/,
			);
		} finally {
			second.session.dispose();
		}
	});
});

/** A stream that ends with an error carrying `message` (the extension's own reply). */
function failingStreamFor(model: { api: string; provider: string; id: string }, message: string) {
	const stream = new AssistantMessageEventStream();
	queueMicrotask(() =>
		stream.push({
			type: "error",
			reason: "error",
			error: {
				role: "assistant",
				content: [],
				api: model.api,
				provider: model.provider,
				model: model.id,
				usage: {
					input: 0,
					output: 0,
					cacheRead: 0,
					cacheWrite: 0,
					totalTokens: 0,
					cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
				},
				stopReason: "error",
				errorMessage: message,
				timestamp: Date.now(),
			},
		}),
	);
	return stream;
}

describe("registerProvider with the built CLI", () => {
	let sb: Sandbox;
	beforeAll(assertBuilt);
	beforeEach(async () => {
		sb = await createSandbox();
		chmodSync(sb.agentDir, 0o700);
	});
	afterEach(async () => {
		await sb.close();
	});

	it("an expired stored login is refreshed by the extension, its key sent through the custom stream", async () => {
		const authFile = join(sb.agentDir, "auth.json");
		writeFileSync(
			authFile,
			JSON.stringify({ "corp-ai": { type: "oauth", access: "old", refresh: "r0", expires: 1 } }),
			{ mode: 0o600 },
		);
		const r = await sb.run(["-p", "-e", CORP, "--model", "corp-ai/corp-1", "hello corp"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("corp-wire key=key:old-refreshed model=corp-1 prompt=yes tools=4 said=hello corp\n");
		const stored = JSON.parse(readFileSync(authFile, "utf8"))["corp-ai"];
		expect(stored).toMatchObject({ type: "oauth", access: "old-refreshed", refresh: "r0" });
		expect(stored.expires).toBeGreaterThan(Date.now());
	});

	it("/corp-off unregisters the provider: the next prompt has no corp-ai model", async () => {
		writeFileSync(
			join(sb.agentDir, "auth.json"),
			JSON.stringify({ "corp-ai": { type: "oauth", access: "a", refresh: "r", expires: Date.now() + 3_600_000 } }),
			{ mode: 0o600 },
		);
		const r = await sb.run(["-p", "-e", CORP, "--model", "corp-ai/corp-1", "/corp-off", "hello"]);
		expect(r.stderr).toContain("corp-ai models left: 0");
		expect(r.code).not.toBe(0);
	});

	it("pi auth login lists the extension's login (-e, or discovered in the agent dir) and stores its tokens", async () => {
		const r = await sb.run(["auth", "login", "corp-ai", "-e", CORP], { stdin: "4711\n" });
		expect(r.stderr).toContain("https://sso.corp.invalid/authorize?client=pi");
		expect(r.stderr).toContain("Logged in to Corp AI (SSO)");
		expect(r.code).toBe(0);
		const authFile = join(sb.agentDir, "auth.json");
		expect(JSON.parse(readFileSync(authFile, "utf8"))["corp-ai"]).toMatchObject({ type: "oauth", access: "acc-4711" });
		// Discovered: ~/.pi/agent/extensions/corp-ai.ts; the key printed is the extension's getApiKey.
		mkdirSync(join(sb.agentDir, "extensions"));
		copyFileSync(CORP, join(sb.agentDir, "extensions", "corp-ai.ts"));
		const printed = await sb.run(["auth", "print-api-key", "--provider", "corp-ai"]);
		expect(printed.stderr).toBe("");
		expect(printed.stdout).toBe("key:acc-4711\n");
		const relogin = await sb.run(["auth", "login", "corp-ai"], { stdin: "99\n" });
		expect(relogin.code).toBe(0);
		expect(JSON.parse(readFileSync(authFile, "utf8"))["corp-ai"]).toMatchObject({ access: "acc-99" });
	});
});
