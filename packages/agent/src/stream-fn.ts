import * as ai from "@pi/ai";
import type { StreamFn } from "./types.js";

let installed: StreamFn | undefined;

/**
 * Sets the stream function used when neither the loop config nor the Agent
 * names one (hosts with their own model runtime install it here). `undefined`
 * restores pi-ai's `stream`.
 */
export function setDefaultStreamFn(streamFn: StreamFn | undefined): void {
	installed = streamFn;
}

/** The stream function in force: the installed one, else pi-ai's `stream`. */
export function getDefaultStreamFn(): StreamFn {
	if (installed) return installed;
	// Looked up by name so this layer does not pin which pi-ai entry point provides it.
	const exported: unknown = (ai as Record<string, unknown>).stream;
	if (typeof exported === "function") return exported as StreamFn;
	return missingStream;
}

const missingStream: StreamFn = () => {
	throw new Error("No stream function: pi-ai does not export `stream`; pass `streamFn` or call setDefaultStreamFn()");
};
