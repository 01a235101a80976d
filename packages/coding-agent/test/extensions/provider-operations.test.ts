// Mixed-operation extension providers (1.6.0): image and classifier models
// with `images` / `classifiers` implementations, run through
// ctx.modelRegistry (and codemode's `models`) with the provider's key over
// real HTTP to the fake provider; the object form's filterModels and
// filterAllModels deciding availability by the stored credential; bad
// registrations refused naming the extension.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FakeProvider, json, startFakeProvider } from "../../../ai/test/support/fake-provider/server.js";
import { createCodemodeExtension } from "../../src/builtins/codemode/index.js";
import type { ExtensionAPI, ExtensionContext } from "../../src/extensions/types.js";
import { sessionWithExtensions } from "../builtins/support.js";
import { inMemoryExtensions } from "./helpers.js";

let fake: FakeProvider;
beforeEach(async () => {
	fake = await startFakeProvider();
	process.env.MEDIA_BASE_URL = `${fake.url}/v1`;
});
afterEach(async () => {
	delete process.env.MEDIA_BASE_URL;
	await fake.close();
});

// Loaded at run time (its `@earendil-works/*` type imports are for extension authors, not this package's tsc).
const FIXTURE = resolve(__dirname, "../fixtures/extensions/providers/media-tools.ts");

/** A session with the media-tools fixture and the ctx its session_start handler saw. */
async function open(extra: Record<string, (pi: ExtensionAPI) => void> = {}) {
	const { default: mediaTools } = (await import(/* @vite-ignore */ pathToFileURL(FIXTURE).href)) as {
		default: (pi: ExtensionAPI) => void;
	};
	let ctx: ExtensionContext | undefined;
	let api: ExtensionAPI | undefined;
	const s = await sessionWithExtensions({
		// The fixture reads MEDIA_BASE_URL when it registers.
		media: mediaTools,
		...extra,
		probe: (pi) => {
			api = pi;
			pi.on("session_start", (_e, c) => void (ctx = c));
		},
	});
	if (!ctx || !api) throw new Error("session_start did not run");
	return { ...s, ctx, api };
}

describe("registerProvider: images, classifiers, filterModels", () => {
	it("image and classifier models are listed by type, apart from the chat models", async () => {
		const { ctx, registry } = await open();
		const r = ctx.modelRegistry;
		expect(r.getModelsOfType("classifier", "media-tools").map((m) => m.id)).toEqual(["classifier-v1"]);
		expect(r.getModelsOfType("image", "media-tools")).toEqual([
			expect.objectContaining({
				type: "image",
				id: "image-v1",
				api: "media-images",
				baseUrl: `${fake.url}/v1`,
				output: ["image"],
			}),
		]);
		expect(r.getModelsOfType("chat", "media-tools").map((m) => m.id)).toEqual(["media-chat"]);
		expect(registry.getAll().some((m) => m.id === "classifier-v1" || m.id === "image-v1")).toBe(false);
		expect(r.getModelOfType("classifier", "media-tools", "classifier-v1")?.contextWindow).toBe(64000);
		expect((await r.getAvailableOfType("image", "media-tools")).map((m) => m.id)).toEqual(["image-v1"]);
	});

	it("classify and generateImages run the provider's implementation with its key over HTTP", async () => {
		const { ctx } = await open();
		const r = ctx.modelRegistry;
		fake.enqueueFor("/classify", json(200, { answers: { spam: { type: "bool", probability: 0.9 } } }));
		fake.enqueueFor("/images", json(200, { images: [{ b64: "aGk=", mime: "image/png" }] }));
		const classifier = r.getModelOfType("classifier", "media-tools", "classifier-v1");
		if (!classifier) throw new Error("no classifier");
		const verdict = await r.classify(
			classifier,
			{
				state: { text: "buy now" },
				questions: { spam: { type: "bool", instructions: "Spam?", criteria: { true: "spam", false: "ham" } } },
			},
			{ temperature: 0.5 },
		);
		expect(verdict).toMatchObject({ stopReason: "stop", answers: { spam: { type: "bool", probability: 0.9 } } });
		const sent = fake.requests.find((q) => q.path.endsWith("/classify"));
		expect(sent?.headers.authorization).toBe("Bearer media-key");
		expect(sent?.body).toMatchObject({ model: "classifier-v1", state: { text: "buy now" }, temperature: 0.5 });

		const image = r.getModelOfType("image", "media-tools", "image-v1");
		if (!image) throw new Error("no image model");
		const painted = await r.generateImages(image, { input: [{ type: "text", text: "a cat" }] });
		expect(painted).toMatchObject({
			stopReason: "stop",
			output: [{ type: "image", data: "aGk=", mimeType: "image/png" }],
		});
		expect(fake.requests.find((q) => q.path.endsWith("/images"))?.body).toEqual({ model: "image-v1", prompt: "a cat" });
	});

	it("image and classifier requests get before_provider_request / after_provider_response and the provider env, as chat requests do", async () => {
		const statuses: number[] = [];
		const { ctx, auth } = await open({
			hooks: (pi) => {
				pi.on("before_provider_request", (event) => ({ ...(event.payload as object), tagged: "by-extension" }));
				pi.on("after_provider_response", (event) => void statuses.push(event.status));
			},
		});
		// The provider environment a key login stores with the key (auth.json's entry).
		await auth.set("media-tools", { type: "api_key", key: "media-key", env: { MEDIA_REGION: "eu" } });
		const r = ctx.modelRegistry;
		fake.enqueueFor("/classify", json(200, { answers: { spam: { type: "bool", probability: 0.1 } } }));
		fake.enqueueFor("/images", json(200, { images: [{ b64: "aGk=", mime: "image/png" }] }));
		const classifier = r.getModelOfType("classifier", "media-tools", "classifier-v1");
		const image = r.getModelOfType("image", "media-tools", "image-v1");
		if (!classifier || !image) throw new Error("models missing");
		const questions = {
			spam: { type: "bool" as const, instructions: "Spam?", criteria: { true: "spam", false: "ham" } },
		};
		expect((await r.classify(classifier, { state: {}, questions })).stopReason).toBe("stop");
		expect((await r.generateImages(image, { input: [{ type: "text", text: "a cat" }] })).stopReason).toBe("stop");
		const classify = fake.requests.find((q) => q.path.endsWith("/classify"));
		const images = fake.requests.find((q) => q.path.endsWith("/images"));
		expect(classify?.body).toMatchObject({ model: "classifier-v1", tagged: "by-extension" });
		expect(images?.body).toEqual({ model: "image-v1", prompt: "a cat", tagged: "by-extension" });
		expect(classify?.headers["x-media-region"]).toBe("eu");
		expect(images?.headers["x-media-region"]).toBe("eu");
		await vi.waitFor(() => expect(statuses).toEqual([200, 200]));
	});

	it("a codemode script lists the classifier and runs it through models.classify over HTTP", async () => {
		const s = await open({ codemode: createCodemodeExtension() });
		s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "codemode"]);
		fake.enqueueFor("/classify", json(200, { answers: { tone: { type: "bool", probability: 0.25 } } }));
		const code = `
const [c] = await models.getModelsOfType("classifier", "media-tools");
const r = await models.classify(c, { state: { msg: "hi" }, questions: { tone: { type: "bool", instructions: "Rude?", criteria: { true: "rude", false: "polite" } } } });
return { id: c.id, type: c.type, stop: r.stopReason, p: r.answers.tone.probability };`;
		s.fake.enqueue({ toolCalls: [{ name: "codemode", args: { code } }] }, { text: "ok" });
		await s.session.prompt("go");
		const result = s.session.messages.find(
			(m) => m.role === "toolResult" && (m as { toolName?: string }).toolName === "codemode",
		) as { content: { text?: string }[]; isError: boolean } | undefined;
		expect(result?.isError).toBe(false);
		const text = result?.content.map((c) => c.text ?? "").join("\n") ?? "";
		expect(JSON.parse(text.slice(text.indexOf("\n") + 1))).toEqual({
			id: "classifier-v1",
			type: "classifier",
			stop: "stop",
			p: 0.25,
		});
		expect(fake.requests.find((q) => q.path.endsWith("/classify"))?.headers.authorization).toBe("Bearer media-key");
	});

	it("never rejects: a failing service, an unknown model and images for a text-only classifier are error results", async () => {
		const { ctx } = await open();
		const r = ctx.modelRegistry;
		const classifier = r.getModelOfType("classifier", "media-tools", "classifier-v1");
		if (!classifier) throw new Error("no classifier");
		fake.enqueueFor("/classify", json(503, { error: "down" }));
		const questions = { q: { type: "bool" as const, instructions: "?", criteria: { true: "y", false: "n" } } };
		expect(await r.classify(classifier, { state: {}, questions })).toMatchObject({
			stopReason: "error",
			errorMessage: "/v1/classify answered 503",
		});
		expect(await r.classify({ ...classifier, id: "nope" }, { state: {}, questions })).toMatchObject({
			stopReason: "error",
			errorMessage: "no classifier model media-tools/nope",
		});
		const withImage = await r.classify(classifier, {
			state: {},
			questions,
			images: [{ type: "image", data: "aGk=", mimeType: "image/png" }],
		});
		expect(withImage).toMatchObject({
			stopReason: "error",
			errorMessage: "media-tools/classifier-v1 does not take images",
		});
	});

	it("filterModels / filterAllModels decide availability from the stored credential", async () => {
		const { ctx, registry, auth } = await open();
		await auth.set("tiered", { type: "api_key", key: "basic-key" });
		expect(
			registry
				.getAvailable()
				.filter((m) => m.provider === "tiered")
				.map((m) => m.id),
		).toEqual(["basic"]);
		expect(
			registry
				.getAll()
				.filter((m) => m.provider === "tiered")
				.map((m) => m.id),
		).toEqual(["basic", "pro"]);
		expect(await ctx.modelRegistry.getAvailableOfType("classifier", "tiered")).toEqual([]);
		await auth.set("tiered", { type: "api_key", key: "pro-key" });
		expect(
			registry
				.getAvailable()
				.filter((m) => m.provider === "tiered")
				.map((m) => m.id),
		).toEqual(["basic", "pro"]);
		const judges = await ctx.modelRegistry.getAvailableOfType("classifier", "tiered");
		expect(judges.map((m) => m.id)).toEqual(["judge"]);
		// The object form's provider-level classify runs its classifier.
		const verdict = await ctx.modelRegistry.classify(judges[0], { state: {}, questions: {} });
		expect(verdict).toMatchObject({ stopReason: "stop", answers: { ok: { type: "bool", probability: 1 } } });
	});

	it("unregisterProvider removes the image and classifier models and their implementations", async () => {
		const { ctx, api } = await open();
		const classifier = ctx.modelRegistry.getModelOfType("classifier", "media-tools", "classifier-v1");
		if (!classifier) throw new Error("no classifier");
		api.unregisterProvider("media-tools");
		expect(ctx.modelRegistry.getModelsOfType("classifier", "media-tools")).toEqual([]);
		const after = await ctx.modelRegistry.classify(classifier, { state: {}, questions: {} });
		expect(after.stopReason).toBe("error");
	});

	it("an image or classifier model without an implementation, or a bad images map, is refused naming the extension", () => {
		const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
		expect(() =>
			inMemoryExtensions({
				"no-impl.ts": (pi) =>
					pi.registerProvider("x", {
						apiKey: "k",
						models: [{ type: "classifier", id: "c", name: "c", api: "x-cls", input: ["text"], cost, contextWindow: 1 }],
					}),
			}),
		).toThrow('classifier model "c" (provider "x") has no implementation: add classifiers["x-cls"] (no-impl.ts)');
		expect(() =>
			inMemoryExtensions({
				"bad-map.ts": (pi) => pi.registerProvider("y", { apiKey: "k", images: { "y-img": {} as never } }),
			}),
		).toThrow('images["y-img"] of provider "y" needs a generateImages function (bad-map.ts)');
	});
});
