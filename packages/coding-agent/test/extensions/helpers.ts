// Builds extensions in memory (a record + its `pi`) for runner tests, and a
// minimal handler context.
import { createExtensionAPI } from "../../src/extensions/api.js";
import { createExtensionRecord, ExtensionRuntime, type LoadedExtension } from "../../src/extensions/extension.js";
import { ExtensionRunner } from "../../src/extensions/runner.js";
import type { ExtensionAPI, ExtensionContext } from "../../src/extensions/types.js";

export function inMemoryExtensions(factories: Record<string, (pi: ExtensionAPI) => void>): {
	runner: ExtensionRunner;
	runtime: ExtensionRuntime;
	extensions: LoadedExtension[];
	errors: { extensionPath: string; event: string; error: string }[];
} {
	const runtime = new ExtensionRuntime();
	const extensions = Object.entries(factories).map(([path, factory]) => {
		const ext = createExtensionRecord(path, path, { path, source: "test", scope: "temporary", origin: "top-level" });
		factory(createExtensionAPI(ext, runtime, { cwd: process.cwd() }));
		return ext;
	});
	const runner = new ExtensionRunner(extensions, runtime);
	runner.setContextFactory(() => ({ cwd: process.cwd(), hasUI: false, mode: "print" }) as unknown as ExtensionContext);
	const errors: { extensionPath: string; event: string; error: string }[] = [];
	runner.onError((e) => errors.push(e));
	return { runner, runtime, extensions, errors };
}
