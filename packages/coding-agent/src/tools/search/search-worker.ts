/**
 * Worker-thread entry of the JS search engines. A regex that backtracks
 * catastrophically or a pathological glob runs here, so the main thread keeps
 * answering (RPC `abort`, `get_state`, the UI); the main thread ends a search
 * that is aborted or over its time limit by terminating this worker.
 */
import { parentPort } from "node:worker_threads";
import { findJs } from "./find-engines.js";
import { grepJs } from "./grep-js.js";
import type { FindQuery, GrepQuery } from "./types.js";

export type SearchRequest =
	| { id: number; kind: "grep"; query: Omit<GrepQuery, "signal"> }
	| { id: number; kind: "find"; query: Omit<FindQuery, "signal"> };

export type SearchResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; message: string };

parentPort?.on("message", async (req: SearchRequest) => {
	try {
		const result = req.kind === "grep" ? await grepJs(req.query) : await findJs(req.query);
		parentPort?.postMessage({ id: req.id, ok: true, result } satisfies SearchResponse);
	} catch (error) {
		parentPort?.postMessage({
			id: req.id,
			ok: false,
			message: error instanceof Error ? error.message : String(error),
		} satisfies SearchResponse);
	}
});
