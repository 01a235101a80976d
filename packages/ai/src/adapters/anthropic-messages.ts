// Placeholder so the registry's lazy import resolves; the real adapter replaces this file.
import { type ApiAdapter, failedStream } from "../adapter.js";

export const adapter: ApiAdapter = {
	stream: (model) =>
		failedStream(model, `The "${model.api}" adapter is not implemented yet`, { kind: "unknown", retryable: false }),
};
