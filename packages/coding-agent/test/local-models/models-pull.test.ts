/**
 * `pi models pull` against a loopback HTTP server that serves a generated GGUF with Range
 * support and can cut the connection mid-body: the first run fails leaving a `.part`, the
 * second resumes with a Range request, and the file lands only after size, sha256 and GGUF checks.
 */
import { createHash } from "node:crypto";
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tinyLlamaGguf } from "../../../ai/test/support/gguf/tiny-llama.js";
import { runModelsCommand } from "../../src/cli/commands/models.js";

interface ServerPlan {
	body: Buffer;
	/** Destroy the socket after this many body bytes (first request only). */
	cutAfter?: number;
	/** Answer Range requests with a full 200 instead of 206. */
	ignoreRange?: boolean;
	/** Extra response headers. */
	headers?: Record<string, string>;
}

const model = tinyLlamaGguf({ seed: 99 });
const modelSha = createHash("sha256").update(model).digest("hex");
let server: Server;
let base: string;
let plan: ServerPlan;
const seen: IncomingMessage["headers"][] = [];

beforeAll(async () => {
	server = createServer((req, res) => {
		seen.push(req.headers);
		const { body } = plan;
		const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
		let start = 0;
		if (range && !plan.ignoreRange) {
			start = Number(range[1]);
			if (start >= body.length) {
				res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
				return;
			}
			res.writeHead(206, {
				"content-length": body.length - start,
				"content-range": `bytes ${start}-${body.length - 1}/${body.length}`,
				...plan.headers,
			});
		} else {
			res.writeHead(200, { "content-length": body.length, ...plan.headers });
		}
		const cut = plan.cutAfter;
		if (cut !== undefined) {
			plan.cutAfter = undefined;
			res.write(body.subarray(start, start + cut), () => setTimeout(() => res.socket?.destroy(), 20));
			return;
		}
		res.end(body.subarray(start));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let agentDir: string;
beforeEach(() => {
	agentDir = mkdtempSync(join(tmpdir(), "pi-pull-"));
	seen.length = 0;
	return () => rmSync(agentDir, { recursive: true, force: true });
});

async function pull(...argv: string[]) {
	const stdout = new PassThrough();
	const stderr = new PassThrough();
	let out = "";
	let err = "";
	stdout.on("data", (d) => {
		out += d;
	});
	stderr.on("data", (d) => {
		err += d;
	});
	const code = await runModelsCommand(["pull", ...argv], {
		stdin: process.stdin,
		stdout,
		stderr,
		env: { PI_CODING_AGENT_DIR: agentDir },
		cwd: agentDir,
	});
	return { code, out, err };
}

const modelsDir = () => join(agentDir, "models");

describe("pi models pull", () => {
	it("an interrupted download keeps a .part; the same command resumes it with Range and verifies it", async () => {
		plan = { body: model, cutAfter: Math.floor(model.length / 3) };
		const first = await pull(`${base}/files/tiny-q.gguf`);
		expect(first.code).toBe(75);
		expect(first.err).toMatch(/The download stopped at \d+ of \d+ bytes.*run the same command again to resume/);
		expect(readdirSync(modelsDir())).toEqual([".tiny-q.gguf.part"]);
		const partSize = readFileSync(join(modelsDir(), ".tiny-q.gguf.part")).length;
		expect(partSize).toBeGreaterThan(0);
		expect(partSize).toBeLessThanOrEqual(Math.floor(model.length / 3));

		const second = await pull(`${base}/files/tiny-q.gguf`, "--sha256", modelSha);
		expect(second.code).toBe(0);
		expect(seen.at(-1)?.range).toBe(`bytes=${partSize}-`);
		expect(second.err).toContain(`Resuming at`);
		expect(second.err).toMatch(/100%/);
		expect(second.out).toContain(`sha256 ${modelSha} (matches the given checksum)`);
		expect(second.out).toContain("pi --model local/tiny-q");
		expect(readdirSync(modelsDir())).toEqual(["tiny-q.gguf"]);
		expect(readFileSync(join(modelsDir(), "tiny-q.gguf")).equals(model)).toBe(true);
	});

	it("names the file as asked and checks the server's stated sha256 (x-linked-etag)", async () => {
		plan = { body: model, headers: { "x-linked-etag": `"${modelSha}"` } };
		const r = await pull(`${base}/resolve/main/model.gguf?download=true`, "mine");
		expect(r.code).toBe(0);
		expect(r.out).toContain("matches the server's checksum");
		expect(existsSync(join(modelsDir(), "mine.gguf"))).toBe(true);
	});

	it.skipIf(!existsSync("/dev/full"))(
		"a disk that fills up mid-download is a clear error naming the file, not an unhandled write error",
		async () => {
			// The .part is /dev/full, where every write fails with ENOSPC: a full disk with real parts.
			plan = { body: model };
			mkdirSync(modelsDir(), { recursive: true });
			symlinkSync("/dev/full", join(modelsDir(), ".full.gguf.part"));
			const r = await pull(`${base}/full.gguf`);
			expect(r.code).toBe(75);
			expect(r.err).toContain(`Could not write ${join(modelsDir(), ".full.gguf.part")}`);
			expect(r.err).toContain("ENOSPC");
			expect(r.err).toContain("run the same command again to resume");
			expect(existsSync(join(modelsDir(), "full.gguf"))).toBe(false);
		},
	);

	it("a checksum mismatch removes the download and fails; nothing lands under the real name", async () => {
		plan = { body: model };
		const r = await pull(`${base}/m.gguf`, "--sha256", "0".repeat(64));
		expect(r.code).toBe(1);
		expect(r.err).toMatch(/Checksum mismatch for m\.gguf: expected sha256 0{64}, got [0-9a-f]{64}/);
		expect(readdirSync(modelsDir())).toEqual([]);
	});

	it("a server that ignores Range: the partial file is restarted from zero", async () => {
		plan = { body: model, cutAfter: 1000 };
		expect((await pull(`${base}/r.gguf`)).code).toBe(75);
		plan = { body: model, ignoreRange: true };
		const r = await pull(`${base}/r.gguf`);
		expect(r.code).toBe(0);
		expect(seen.at(-1)?.range).toBe("bytes=1000-");
		expect(readFileSync(join(modelsDir(), "r.gguf")).equals(model)).toBe(true);
	});

	it("a complete .part (416 from the server) is verified and moved into place", async () => {
		plan = { body: model };
		const dir = modelsDir();
		mkdirSync(dir);
		writeFileSync(join(dir, ".done.gguf.part"), model);
		const r = await pull(`${base}/done.gguf`);
		expect(r.code).toBe(0);
		expect(seen.at(-1)?.range).toBe(`bytes=${model.length}-`);
		expect(readFileSync(join(dir, "done.gguf")).equals(model)).toBe(true);
	});

	it("a download that is not a GGUF is refused and removed; an existing model is not overwritten", async () => {
		plan = { body: Buffer.from("<html>not found</html>") };
		const bad = await pull(`${base}/page.gguf`);
		expect(bad.code).toBe(1);
		expect(bad.err).toMatch(/is not a usable GGUF model: not a GGUF model file/);
		expect(readdirSync(modelsDir())).toEqual([]);

		plan = { body: model };
		expect((await pull(`${base}/keep.gguf`)).code).toBe(0);
		const again = await pull(`${base}/keep.gguf`);
		expect(again.code).toBe(1);
		expect(again.err).toMatch(/keep\.gguf already exists \(use --force/);
	});

	it("usage errors and HTTP errors exit 1 with a message", async () => {
		expect((await pull()).code).toBe(1);
		plan = { body: model };
		const missing = await pull("http://127.0.0.1:1/nothing.gguf");
		expect(missing.code).toBe(1);
		expect(missing.err).toMatch(/Could not reach http:\/\/127\.0\.0\.1:1\/nothing\.gguf/);
		const named = await pull(`${base}/x.gguf`, "../escape");
		expect(named.code).toBe(1);
		expect(named.err).toMatch(/give a plain file name/);
	});
});
