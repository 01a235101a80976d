// A stream function an extension supplies (registerProvider's streamSimple,
// pi-ai compat's registerApiProvider) as a pi-ai adapter. Adapters must end
// with exactly one done or error event and never throw; extension code gives
// no such promise, so a throw or a stream that just stops becomes an error
// reply naming where the function came from.
import { type ApiAdapter, AssistantMessageEventStream, failedStream } from "@pi/ai";
import type { ProviderStreamFunction } from "./provider-types.js";

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** `source` names the function's origin in failure texts (an extension path, a registration). */
export function extensionStreamAdapter(streamFn: ProviderStreamFunction, source: string): ApiAdapter {
	return {
		stream(model, context, options) {
			let inner: AsyncIterable<unknown>;
			try {
				inner = streamFn(model, context, options);
			} catch (error) {
				return failedStream(
					model,
					`The stream of provider "${model.provider}" failed: ${describe(error)} (${source})`,
					{
						kind: "unknown",
						retryable: false,
					},
				);
			}
			const out = new AssistantMessageEventStream();
			const fail = (message: string) =>
				void failedStream(model, message, { kind: "unknown", retryable: false })
					.result()
					.then((error) => out.push({ type: "error", reason: "error", error }));
			void (async () => {
				try {
					for await (const event of inner as AsyncIterable<Parameters<AssistantMessageEventStream["push"]>[0]>) {
						out.push(event);
						if (event.type === "done" || event.type === "error") return;
					}
					fail(`The stream of provider "${model.provider}" ended without a done or error event (${source})`);
				} catch (error) {
					fail(`The stream of provider "${model.provider}" failed: ${describe(error)} (${source})`);
				}
			})();
			return out;
		},
	};
}
