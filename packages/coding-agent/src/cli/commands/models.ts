// `pi models pull <url> [name]`: a GGUF into ~/.pi/agent/models/, where pi
// finds it as `local/<name>` (and uses it when no provider has credentials).
import { localModelsDir } from "../../config/local-models.js";
import { PullError, type PullProgress, pullModel } from "../../config/model-pull.js";
import { getAgentDir } from "../../config/paths.js";
import type { CommandIo } from "./io.js";

const USAGE = `Usage:
  pi models pull <url> [name] [--sha256 <hex>] [--force]

Downloads a GGUF model into the local models directory (~/.pi/agent/models/).
An interrupted download resumes when the same command runs again. The file is
checked (size, sha256 when given or stated by the server, GGUF header) before
it is renamed into place. Use it with: pi --model local/<name>
`;

export async function runModelsCommand(argv: readonly string[], io: CommandIo): Promise<number> {
	const [sub, ...rest] = argv;
	if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
		io.stdout.write(USAGE);
		return sub === undefined ? 1 : 0;
	}
	if (sub !== "pull") {
		io.stderr.write(`Error: unknown command "pi models ${sub}"\n\n${USAGE}`);
		return 1;
	}
	const positional: string[] = [];
	let sha256: string | undefined;
	let force = false;
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i];
		if (arg === "--sha256") sha256 = rest[++i];
		else if (arg === "--force" || arg === "-f") force = true;
		else if (arg.startsWith("-")) {
			io.stderr.write(`Error: unknown option ${arg}\n\n${USAGE}`);
			return 1;
		} else positional.push(arg);
	}
	const [url, name] = positional;
	if (!url || positional.length > 2 || (rest.includes("--sha256") && !sha256)) {
		io.stderr.write(USAGE);
		return 1;
	}
	const dir = localModelsDir(getAgentDir(io.env));
	const bar = progressBar(io.stderr);
	const controller = new AbortController();
	const onSignal = () => controller.abort(new Error("interrupted"));
	process.once("SIGINT", onSignal);
	try {
		const result = await pullModel({
			url,
			dir,
			name,
			sha256,
			force,
			signal: controller.signal,
			onProgress: bar.update,
		});
		bar.done();
		const id = result.path.slice(dir.length + 1).replace(/\.gguf$/i, "");
		const check = result.verifiedAgainst
			? `sha256 ${result.sha256} (matches the ${result.verifiedAgainst === "given" ? "given" : "server's"} checksum)`
			: `sha256 ${result.sha256}`;
		io.stdout.write(
			`Saved ${result.path} (${formatBytes(result.size)}, ${check}).\nUse it with: pi --model local/${id}\n`,
		);
		return 0;
	} catch (error) {
		bar.done();
		io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
		return error instanceof PullError && error.resumable ? 75 : 1;
	} finally {
		process.removeListener("SIGINT", onSignal);
	}
}

/** A one-line bar redrawn in place on a terminal; a line per 10% otherwise. */
function progressBar(out: NodeJS.WritableStream): { update: (p: PullProgress) => void; done: () => void } {
	const tty = (out as { isTTY?: boolean }).isTTY === true;
	const started = performance.now();
	let lastDecile = -1;
	let drawn = false;
	let lastDraw = 0;
	return {
		update: (p) => {
			if (p.resumedFrom) out.write(`Resuming at ${formatBytes(p.resumedFrom)}\n`);
			const fraction = p.total ? p.received / p.total : undefined;
			const seconds = Math.max(0.001, (performance.now() - started) / 1000);
			const text = `${formatBytes(p.received)}${p.total ? ` / ${formatBytes(p.total)}` : ""}`;
			if (tty) {
				const now = performance.now();
				if (now - lastDraw < 100 && fraction !== 1) return;
				lastDraw = now;
				const width = 30;
				const filled = fraction === undefined ? 0 : Math.round(fraction * width);
				const bar =
					fraction === undefined
						? ""
						: `[${"=".repeat(filled)}${" ".repeat(width - filled)}] ${Math.floor(fraction * 100)}% `;
				out.write(`\r${bar}${text} ${formatBytes(p.received / seconds)}/s\x1b[K`);
				drawn = true;
			} else if (fraction !== undefined) {
				const decile = Math.floor(fraction * 10);
				if (decile > lastDecile) {
					lastDecile = decile;
					out.write(`${decile * 10}% ${text}\n`);
				}
			}
		},
		done: () => {
			if (drawn) out.write("\n");
			drawn = false;
		},
	};
}

function formatBytes(n: number): string {
	if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(2)} GiB`;
	if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
	if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
	return `${Math.round(n)} B`;
}
