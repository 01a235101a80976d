// Downloading a GGUF into the local models dir: into `.<name>.part` next to
// the target, resumed with an HTTP Range request after an interruption,
// checked for size (the server's length), checksum (sha256: given, or the
// server's LFS hash) and a readable GGUF header, then renamed into place, so
// the models dir never holds a half-written model under its real name.
import { createHash } from "node:crypto";
import {
	createReadStream,
	createWriteStream,
	existsSync,
	mkdirSync,
	renameSync,
	rmSync,
	statSync,
	type WriteStream,
} from "node:fs";
import { basename, join } from "node:path";
import { GgufFileError, readGgufInfoSync } from "@pi/ai";

export interface PullProgress {
	received: number;
	/** Total bytes when the server said; undefined otherwise. */
	total?: number;
	/** True for the first report of a resumed download. */
	resumedFrom?: number;
}

export interface PullOptions {
	url: string;
	dir: string;
	/** File name in `dir` (`.gguf` added when missing); default: the URL's last path segment. */
	name?: string;
	/** Expected sha256 (hex). When absent, a sha256 the server states (Hugging Face's x-linked-etag) is checked. */
	sha256?: string;
	/** Replace an existing file of that name. */
	force?: boolean;
	onProgress?: (progress: PullProgress) => void;
	signal?: AbortSignal;
	fetch?: typeof fetch;
}

export interface PullResult {
	path: string;
	size: number;
	sha256: string;
	/** Bytes that were already there from an interrupted download. */
	resumedFrom: number;
	/** Whose sha256 the file was checked against, if any. */
	verifiedAgainst?: "given" | "server";
}

export class PullError extends Error {
	constructor(
		message: string,
		/** A partial file is kept and the next run resumes it. */
		readonly resumable = false,
	) {
		super(message);
		this.name = "PullError";
	}
}

/** The models-dir file name for a URL (or the name given). */
export function pullFileName(url: string, name?: string): string {
	let base = name;
	if (!base) {
		let path = "";
		try {
			path = new URL(url).pathname;
		} catch {
			throw new PullError(`Not a URL: ${url}`);
		}
		base = decodeURIComponent(basename(path));
	}
	if (!base || base.includes("/") || base.includes("\\") || base.startsWith(".")) {
		throw new PullError(
			`Cannot name the model file "${base}": give a plain file name, e.g. pi models pull <url> my-model`,
		);
	}
	return /\.gguf$/i.test(base) ? base : `${base}.gguf`;
}

const SHA256 = /^[0-9a-f]{64}$/i;

export async function pullModel(options: PullOptions): Promise<PullResult> {
	const fetchFn = options.fetch ?? fetch;
	const fileName = pullFileName(options.url, options.name);
	mkdirSync(options.dir, { recursive: true });
	const target = join(options.dir, fileName);
	const part = join(options.dir, `.${fileName}.part`);
	if (existsSync(target) && !options.force) {
		throw new PullError(`${target} already exists (use --force to download it again)`);
	}
	if (options.sha256 && !SHA256.test(options.sha256)) throw new PullError(`--sha256 must be 64 hex digits`);

	let have = existsSync(part) ? statSync(part).size : 0;
	const headers: Record<string, string> = { "accept-encoding": "identity" };
	if (have > 0) headers.range = `bytes=${have}-`;
	let response: Response;
	try {
		response = await fetchFn(options.url, { headers, signal: options.signal, redirect: "follow" });
	} catch (error) {
		throw new PullError(`Could not reach ${options.url}: ${describe(error)}`, have > 0);
	}
	if (response.status === 416 && have > 0) {
		// The part already holds everything the server has: verify it as it is.
		await response.body?.cancel();
		return finish(part, target, have, undefined, options, have);
	}
	if (response.status !== 200 && response.status !== 206) {
		await response.body?.cancel();
		throw new PullError(`${options.url}: HTTP ${response.status} ${response.statusText}`.trim());
	}
	let total: number | undefined;
	if (response.status === 206) {
		const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers.get("content-range") ?? "");
		if (!range || Number(range[1]) !== have) {
			await response.body?.cancel();
			throw new PullError(`${options.url}: the server resumed at the wrong offset; delete ${part} and try again`);
		}
		if (range[3] !== "*") total = Number(range[3]);
	} else {
		// A full answer (no or ignored Range): start over.
		have = 0;
		const length = response.headers.get("content-length");
		if (length !== null) total = Number(length);
	}
	const serverSha = [response.headers.get("x-linked-etag"), response.headers.get("etag")]
		.map((value) => value?.replace(/^W\//, "").replace(/"/g, ""))
		.find((value): value is string => value !== undefined && SHA256.test(value));
	const resumedFrom = have;
	options.onProgress?.({ received: have, total, resumedFrom: have > 0 ? have : undefined });

	const out = createWriteStream(part, { flags: have > 0 ? "a" : "w" });
	let received = have;
	// The file's own failure (a full disk, a folder gone or read-only) is an `error` event: without a
	// listener it ended pi, and a wait for 'drain' would never end. It stops the download instead.
	let writeError: Error | undefined;
	const writeFailed = new Promise<never>((_, reject) =>
		out.on("error", (error) => {
			writeError ??= error;
			reject(error);
		}),
	);
	writeFailed.catch(() => {});
	const cannotWrite = (error: Error) =>
		new PullError(
			`Could not write ${part} at ${received} bytes (${describe(error)}); make room or fix the folder, then run the same command again to resume`,
			true,
		);
	try {
		if (!response.body) throw new Error("the response has no body");
		for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
			if (writeError) break;
			if (!out.write(chunk))
				await Promise.race([new Promise<void>((resolve) => out.once("drain", resolve)), writeFailed]).catch(() => {});
			if (writeError) break;
			received += chunk.length;
			options.onProgress?.({ received, total });
		}
	} catch (error) {
		await closeStream(out);
		if (writeError) throw cannotWrite(writeError);
		throw new PullError(
			`The download stopped at ${received}${total ? ` of ${total}` : ""} bytes (${describe(error)}); run the same command again to resume`,
			true,
		);
	}
	await closeStream(out);
	if (writeError) throw cannotWrite(writeError);
	if (total !== undefined && received < total) {
		throw new PullError(
			`The download stopped at ${received} of ${total} bytes; run the same command again to resume`,
			true,
		);
	}
	return finish(
		part,
		target,
		received,
		total,
		{ ...options, sha256: options.sha256 ?? serverSha },
		resumedFrom,
		serverSha !== undefined && !options.sha256,
	);
}

async function finish(
	part: string,
	target: string,
	size: number,
	total: number | undefined,
	options: PullOptions,
	resumedFrom: number,
	fromServer = false,
): Promise<PullResult> {
	if (total !== undefined && size !== total) {
		rmSync(part, { force: true });
		throw new PullError(
			`Size mismatch: got ${size} bytes, the server announced ${total}; the partial file was removed`,
		);
	}
	const sha256 = await hashFile(part);
	if (options.sha256 && sha256 !== options.sha256.toLowerCase()) {
		rmSync(part, { force: true });
		throw new PullError(
			`Checksum mismatch for ${basename(target)}: expected sha256 ${options.sha256.toLowerCase()}, got ${sha256}; the download was removed`,
		);
	}
	try {
		readGgufInfoSync(part);
	} catch (error) {
		rmSync(part, { force: true });
		const detail = error instanceof GgufFileError ? error.message.slice(part.length + 2) : describe(error);
		throw new PullError(`${options.url} is not a usable GGUF model: ${detail}; the download was removed`);
	}
	renameSync(part, target);
	const result: PullResult = { path: target, size, sha256, resumedFrom };
	if (options.sha256) result.verifiedAgainst = fromServer ? "server" : "given";
	return result;
}

function hashFile(path: string): Promise<string> {
	return new Promise((resolve, reject) => {
		const hash = createHash("sha256");
		createReadStream(path)
			.on("data", (chunk) => hash.update(chunk))
			.on("error", reject)
			.on("end", () => resolve(hash.digest("hex")));
	});
}

/** Ends the file; settles also when writing it failed (the caller reads the failure from its listener). */
function closeStream(stream: WriteStream): Promise<void> {
	if (stream.destroyed) return Promise.resolve();
	return new Promise((resolve) => {
		stream.once("close", () => resolve());
		stream.end();
	});
}

function describe(error: unknown): string {
	if (error instanceof Error) {
		const cause = (error as { cause?: unknown }).cause;
		return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
	}
	return String(error);
}
