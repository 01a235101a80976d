import { describe, expect, it } from "vitest";
import { makeSession, testModel } from "./support.js";

describe("model cycling and scoped models", () => {
	it("cycles through scoped models with their thinking levels, both directions", async () => {
		const a = testModel({ id: "a" });
		const b = testModel({ id: "b", reasoning: false });
		const { session, sessionManager } = await makeSession({
			scopedModels: [{ model: a, thinkingLevel: "high" }, { model: b }],
		});
		// A new session starts on the first scoped model and its level.
		expect(session.model?.id).toBe("a");
		expect(session.thinkingLevel).toBe("high");
		expect(session.cycleModel()).toEqual({ model: b, thinkingLevel: "off", isScoped: true });
		expect(session.cycleModel("backward")).toEqual({ model: a, thinkingLevel: "high", isScoped: true });
		const models = sessionManager
			.getEntries()
			.filter((e) => e.type === "model_change")
			.map((e) => (e.type === "model_change" ? e.modelId : ""));
		expect(models).toEqual(["a", "b", "a"]);
	});

	it("without a scope cycles through models with credentials; one model means nothing to cycle", async () => {
		const { session } = await makeSession();
		expect(session.model?.id).toBe("test-model");
		expect(session.cycleModel()?.model.id).toBe("plain");
		expect(session.cycleModel()?.model.id).toBe("test-model");
		const single = await makeSession({ scopedModels: [{ model: testModel() }] });
		expect(single.session.cycleModel()).toBeUndefined();
	});

	it("cycles thinking levels through what the model supports", async () => {
		const { session } = await makeSession({ thinkingLevel: "off" });
		expect(session.getAvailableThinkingLevels()).toEqual(["off", "minimal", "low", "medium", "high"]);
		expect(session.cycleThinkingLevel()).toBe("minimal");
		session.setThinkingLevel("high");
		expect(session.cycleThinkingLevel()).toBe("off");
	});

	it("cycles up to xhigh and max where the model names them, then back to off", async () => {
		const top = testModel({ id: "top", thinkingLevelMap: { minimal: null, xhigh: "xhigh", max: "max" } });
		const { session } = await makeSession({ model: top, thinkingLevel: "high" });
		expect(session.getAvailableThinkingLevels()).toEqual(["off", "low", "medium", "high", "xhigh", "max"]);
		expect([1, 2, 3].map(() => session.cycleThinkingLevel())).toEqual(["xhigh", "max", "off"]);
		expect(session.setThinkingLevel("max")).toBe("max");
		// A model without max: the level drops to the highest it has.
		session.setModel(testModel({ id: "test-model" }));
		expect(session.thinkingLevel).toBe("high");
	});

	it("context usage comes from the last response's usage", async () => {
		const { session, fake } = await makeSession();
		fake.enqueue({ text: "hello" });
		await session.prompt("hi");
		expect(session.getContextUsage()).toEqual({ tokens: 15, contextWindow: 1000, percent: 1.5 });
	});
});
