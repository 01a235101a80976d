// The `--mode rpc` branch of the CLI: signals, `get_commands` from the
// loaded resources, and the process's own stdin/stdout.

import type { ImageContent } from "@pi/ai";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { ExtensionBridge } from "../../agent-session/extension-bridge.js";
import type { ExtensionError } from "../../extensions/types.js";
import type { ExtensionUIContext } from "../../extensions/ui-types.js";
import type { ResourceLoader } from "../../resources/resource-loader.js";
import type { RpcExtensionUI } from "./extension-ui.js";
import type { JsonlSink } from "./jsonl-writer.js";
import { resourceCommands } from "./resource-commands.js";
import { runRpcMode } from "./rpc-mode.js";

export interface RpcCliOptions {
	resources: ResourceLoader;
	stdin: NodeJS.ReadableStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	/** Loaded extensions: their UI goes over the RPC protocol, their errors become `extension_error` records. */
	extensions?: {
		bridge: ExtensionBridge;
		/** The runtime replaces the bridge on a reload or a change of folder; RPC binds its UI to each new one. */
		runtime?: {
			readonly bridge: ExtensionBridge | undefined;
			onExtensionsChanged(listener: (change: { bridge: ExtensionBridge | undefined }) => void): () => void;
		};
		setErrorWriter(write: (error: ExtensionError) => void): void;
	};
}

const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

function ignoreClosedStderr(): void {}

/**
 * Serves RPC until stdin ends (exit 0). A first SIGINT/SIGTERM/SIGHUP aborts
 * the run and shuts down (exit 128 + n); a second one exits at once.
 */
export async function runRpcCli(session: AgentSession, options: RpcCliOptions): Promise<number> {
	const controller = new AbortController();
	let signalExit: number | undefined;
	const handlers = Object.entries(SIGNAL_EXIT).map(([name, code]) => {
		const handler = () => {
			if (signalExit !== undefined) process.exit(signalExit);
			signalExit = code;
			controller.abort();
		};
		process.on(name, handler);
		return [name, handler] as const;
	});
	// stderr carries diagnostics only (and stray stdout writes, see stdout-guard.ts). A client that
	// closed its end of it makes the next write fail with EPIPE, an `error` event that without a
	// listener ended pi mid-run; the protocol on stdout goes on, and stderr has no reader left to tell.
	// Kept for the process's life: a write just before the end fails a tick later.
	for (const stream of new Set([options.stderr, process.stderr])) {
		if (!stream.listeners("error").includes(ignoreClosedStderr)) stream.on("error", ignoreClosedStderr);
	}
	const ext = options.extensions;
	const bridge = () => (ext?.runtime ? ext.runtime.bridge : ext?.bridge);
	let offChange: (() => void) | undefined;
	try {
		const code = await runRpcMode(session, {
			input: options.stdin,
			// The real stdout gets a guard (stray writes go to stderr); another stream is used as given.
			output: options.stdout === process.stdout ? undefined : (options.stdout as unknown as JsonlSink),
			stderr: options.stderr,
			getCommands: () => [...(bridge()?.listCommands() ?? []), ...resourceCommands(options.resources)],
			signal: controller.signal,
			...(ext
				? {
						submit: (text: string, o: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" }) => {
							const current = bridge();
							return current ? current.submit(text, { ...o, source: "rpc" }) : session.prompt(text, o);
						},
						beforeServe: async (io: { ui: RpcExtensionUI; emit(record: object): void }) => {
							const ui = io.ui as unknown as ExtensionUIContext;
							ext.setErrorWriter((e) => io.emit({ type: "extension_error", ...e }));
							offChange = ext.runtime?.onExtensionsChanged((change) => change.bridge?.setUI(ui));
							ext.bridge.setUI(ui);
							await ext.bridge.start("startup");
						},
					}
				: {}),
		});
		return signalExit ?? code;
	} finally {
		offChange?.();
		for (const [name, handler] of handlers) process.off(name, handler);
	}
}
