// OperationModels.generateImages / classify: one path for both operations —
// the registered model of that type, the implementation for its api or the
// provider-level one, the request options; every failure an error result.
import type { AssistantImages, ClassifierModel, ClassifierResult, ImageModel } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { OperationModels } from "../../src/config/operation-models.js";

const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const image: ImageModel = {
	type: "image",
	id: "img",
	name: "img",
	api: "img-api",
	provider: "p",
	baseUrl: "http://127.0.0.1:1",
	input: ["text"],
	output: ["image"],
	cost,
};
const classifier: ClassifierModel = {
	type: "classifier",
	id: "cls",
	name: "cls",
	api: "cls-api",
	provider: "p",
	baseUrl: "http://127.0.0.1:1",
	input: ["text"],
	contextWindow: 1000,
	cost,
};
const questions = { q: { type: "bool" as const, instructions: "?", criteria: { true: "y", false: "n" } } };

function registry() {
	const ops = new OperationModels({
		credential: () => undefined,
		requestAuth: async () => ({ apiKey: "k", baseUrl: "http://auth-base" }),
	});
	ops.register(image);
	ops.register(classifier);
	return ops;
}

const imagesOk = (model: ImageModel, apiKey?: string): AssistantImages => ({
	api: model.api,
	provider: model.provider,
	model: `${model.id}@${model.baseUrl}:${apiKey}`,
	output: [],
	stopReason: "stop",
	timestamp: 0,
});
const classifierOk = (model: ClassifierModel, apiKey?: string): ClassifierResult => ({
	api: model.api,
	provider: model.provider,
	model: `${model.id}@${model.baseUrl}:${apiKey}`,
	answers: {},
	stopReason: "stop",
	timestamp: 0,
});

describe("OperationModels operations", () => {
	it("an unknown model, a missing implementation and a throw are error results naming the operation", async () => {
		const ops = registry();
		expect(await ops.generateImages({ ...image, id: "nope" }, { input: [] })).toMatchObject({
			stopReason: "error",
			errorMessage: "no image model p/nope",
		});
		expect(await ops.classify({ ...classifier, id: "nope" }, { state: {}, questions })).toMatchObject({
			stopReason: "error",
			errorMessage: "no classifier model p/nope",
			answers: {},
		});
		expect(await ops.generateImages(image, { input: [] })).toMatchObject({
			stopReason: "error",
			errorMessage: 'provider "p" has no image implementation for api "img-api"',
			output: [],
		});
		expect(await ops.classify(classifier, { state: {}, questions })).toMatchObject({
			stopReason: "error",
			errorMessage: 'provider "p" has no classifier implementation for api "cls-api"',
		});
		ops.setOperations("p", {
			generateImages: async () => {
				throw new Error("boom");
			},
			classify: async () => {
				throw "bang";
			},
		});
		expect(await ops.generateImages(image, { input: [] })).toMatchObject({ stopReason: "error", errorMessage: "boom" });
		expect(await ops.classify(classifier, { state: {}, questions })).toMatchObject({
			stopReason: "error",
			errorMessage: "bang",
		});
		const aborted = AbortSignal.abort();
		expect(
			await ops.classify({ ...classifier, id: "nope" }, { state: {}, questions }, { signal: aborted }),
		).toMatchObject({ stopReason: "aborted" });
		expect(await ops.generateImages(image, { input: [] }, { signal: aborted })).toMatchObject({
			stopReason: "aborted",
			errorMessage: "boom",
		});
	});

	it("runs the implementation for the model's api before the provider-level one, with the auth's key and base URL", async () => {
		const ops = registry();
		ops.setOperations("p", {
			images: { "img-api": { generateImages: async (m, _c, o) => imagesOk(m, `api-${o?.apiKey}`) } },
			generateImages: async (m, _c, o) => imagesOk(m, `provider-${o?.apiKey}`),
			classify: async (m, _c, o) => classifierOk(m, `provider-${o?.apiKey}`),
		});
		expect((await ops.generateImages(image, { input: [] })).model).toBe("img@http://auth-base:api-k");
		expect((await ops.classify(classifier, { state: {}, questions })).model).toBe("cls@http://auth-base:provider-k");
		expect(
			await ops.classify(classifier, {
				state: {},
				questions,
				images: [{ type: "image", data: "aGk=", mimeType: "image/png" }],
			}),
		).toMatchObject({ stopReason: "error", errorMessage: "p/cls does not take images" });
	});
});
