// The codemode sandbox on its own: a QuickJS VM in a worker thread, driven
// through runScript with a scripted host. Escapes are tried and must fail;
// limits must stop the script and say which one was hit.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostOp } from "../../../src/builtins/codemode/sandbox/protocol.js";
import { runScript, type ScriptHost } from "../../../src/builtins/codemode/sandbox/run-script.js";

const TOOLS = [
	{ name: "echo", ident: "echo", description: "Echoes its arguments" },
	{ name: "mcp__dev-radius__search", ident: "mcp__dev_radius__search", description: "Searches" },
];

const echoHost: ScriptHost = {
	async call(op: HostOp, name: string, args: Record<string, unknown>) {
		if (op !== "tool") return { op, name, args };
		if (args.fail) throw new Error(`tool ${name} failed: ${String(args.fail)}`);
		return { name, args };
	},
};

const run = (code: string, extra: Partial<Parameters<typeof runScript>[0]> = {}) =>
	runScript({ code, tools: TOOLS, host: echoHost, timeoutMs: 30_000, ...extra });

const texts = (o: { items: { kind: string; text?: string }[] }) =>
	o.items.filter((i) => i.kind === "text").map((i) => i.text);

describe("codemode sandbox: scripts", () => {
	it("runs an async function body: await, return, text, console, tools", async () => {
		const o = await run(`
			text("first");
			console.log("a", 1, { b: 2 });
			const r = await tools.echo({ x: 1 });
			const m = await tools.mcp__dev_radius__search({ q: "z" });
			return { r, m: m.name };
		`);
		expect(o.ok).toBe(true);
		expect(texts(o)[0]).toBe("first");
		expect(JSON.parse(texts(o)[1] ?? "")).toEqual({
			r: { name: "echo", args: { x: 1 } },
			m: "mcp__dev-radius__search",
		});
		expect(o.console).toEqual(['a 1 {\n  "b": 2\n}']);
		expect(o.toolCalls).toBe(2);
	});

	it("a failing tool call rejects with the tool's error text; allSettled keeps the others", async () => {
		const o = await run(`
			const r = await Promise.allSettled([tools.echo({ n: 1 }), tools.echo({ fail: "boom" })]);
			return r.map((x) => x.status === "fulfilled" ? x.value.args.n : String(x.reason));
		`);
		expect(o.ok).toBe(true);
		expect(JSON.parse(texts(o)[0] ?? "")).toEqual([1, "Error: tool echo failed: boom"]);
	});

	it("calls run in parallel with Promise.all", async () => {
		let inFlight = 0;
		let most = 0;
		const gates: (() => void)[] = [];
		const host: ScriptHost = {
			async call(_op, _name, args) {
				inFlight++;
				most = Math.max(most, inFlight);
				// Each call waits until all three have started, so they can only finish if they ran side by side.
				await new Promise<void>((resolve) => {
					gates.push(resolve);
					if (gates.length === 3) for (const g of gates) g();
				});
				inFlight--;
				return args.i;
			},
		};
		const o = await run(`return await Promise.all([1, 2, 3].map((i) => tools.echo({ i })));`, { host });
		expect(o.ok).toBe(true);
		expect(most).toBe(3);
		expect(JSON.parse(texts(o)[0] ?? "")).toEqual([1, 2, 3]);
	});

	it("reports a syntax error with the script's own line number", async () => {
		const o = await run(`const a = 1;\nconst b = ;\n`);
		expect(o.ok).toBe(false);
		expect(o.error).toMatch(/SyntaxError/);
		expect(o.error).toMatch(/line 2/);
	});

	it("exit() ends the script successfully; later output is dropped", async () => {
		const o = await run(`text("a"); exit(); text("b");`);
		expect(o.ok).toBe(true);
		expect(texts(o)).toEqual(["a"]);
	});

	it("a promise that can never settle fails at once", async () => {
		const o = await run(`await new Promise(() => {}); return 1;`);
		expect(o.ok).toBe(false);
		expect(o.error).toMatch(/never settle/);
	});

	it("store() and load(): writes are reported for a successful script only", async () => {
		const ok = await run(`store("k", { n: load("k").n + 1 }); store("gone", undefined); return load("k");`, {
			store: { k: JSON.stringify({ n: 1 }), gone: "true" },
		});
		expect(ok.ok).toBe(true);
		expect(ok.store).toEqual({ set: { k: '{"n":2}' }, delete: ["gone"] });
		const failed = await run(`store("k", 5); throw new Error("no")`);
		expect(failed.ok).toBe(false);
		expect(failed.store).toBeUndefined();
		const big = await run(`store("k", "x".repeat(300000));`);
		expect(big.ok).toBe(false);
		expect(big.error).toMatch(/too long/);
	});

	it("image() accepts data: URLs and image blocks, refuses remote URLs", async () => {
		const o = await run(`
			image("data:image/png;base64,iVBORw0KGgo=");
			image({ type: "image", data: "R0lGODlh", mimeType: "image/gif" });
			try { image("https://example.com/a.png"); } catch (e) { text(String(e)); }
		`);
		expect(o.ok).toBe(true);
		expect(o.items.map((i) => i.kind)).toEqual(["image", "image", "text"]);
		expect(texts(o)[0]).toMatch(/remote URLs are not supported/);
	});
});

describe("codemode sandbox: escapes are refused", () => {
	let server: Server;
	let port = 0;
	let requests = 0;
	beforeAll(async () => {
		server = createServer((_req, res) => {
			requests++;
			res.end("reached");
		});
		await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
		port = (server.address() as AddressInfo).port;
	});
	afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

	const attempts: [string, string][] = [
		["process", "return typeof process"],
		["process.exit", "process.exit(1)"],
		["require", "return require('node:fs').readFileSync('/etc/passwd', 'utf8')"],
		["fetch", "return await fetch('http://127.0.0.1:PORT/')"],
		["XMLHttpRequest", "return new XMLHttpRequest()"],
		["setTimeout", "return await new Promise((r) => setTimeout(r, 1))"],
		["WebAssembly", "return typeof WebAssembly"],
		["Function constructor", "return Function('return this')().process.pid"],
		["constructor chain", "return this.constructor.constructor('return process')().pid"],
		[
			"globalThis host object",
			"return Object.getOwnPropertyNames(globalThis).filter((k) => /pi|process|require|host/.test(k))",
		],
		["__pi after the prelude", "return typeof globalThis.__pi"],
		["std/os modules", "return [typeof std, typeof os, typeof scriptArgs]"],
	];
	for (const [what, code] of attempts) {
		it(`${what}`, async () => {
			const o = await run(code.replace("PORT", String(port)));
			const out = o.ok ? (texts(o)[0] ?? "") : (o.error ?? "");
			// Either the script fails (a ReferenceError/TypeError) or what it sees is empty/undefined.
			expect(out).not.toMatch(/root:|reached|^\d+$|^"function"$|^"object"$/);
			if (o.ok)
				expect(["undefined", '"undefined"', "[]", '[\n  "undefined",\n  "undefined",\n  "undefined"\n]']).toContain(
					out,
				);
			else expect(out).toMatch(/ReferenceError|TypeError|not defined|not a function|undefined/);
		});
	}

	it("import() is refused", async () => {
		for (const spec of ["node:fs", "fs", "os", "./x.js", "data:text/javascript,export default 1"]) {
			const o = await run(`const m = await import(${JSON.stringify(spec)}); return Object.keys(m);`);
			expect(o.ok, spec).toBe(false);
		}
	});

	it("no request reached the loopback server", () => {
		expect(requests).toBe(0);
	});
});

describe("codemode sandbox: limits", () => {
	it("an infinite loop is stopped by the time limit", async () => {
		const o = await run(`while (true) {}`, { timeoutMs: 1_500 });
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("time");
		expect(o.error).toMatch(/time limit of 1500 ms/);
	});

	it("a memory bomb hits the VM's memory limit", async () => {
		const o = await run(`const a = []; while (true) a.push(new Uint8Array(1e6));`, {
			limits: { memoryBytes: 32 * 1024 * 1024 },
		});
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("memory");
		expect(o.error).toMatch(/out of memory/);
	});

	it("a 100 MB string return stops at the output limit without being copied out", async () => {
		const o = await run(`return "x".repeat(1024 * 1024).repeat(100);`);
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("output");
		expect(o.error).toMatch(/16777216 characters/);
		expect(o.items).toEqual([]);
	});

	it("too many output calls stop the script", async () => {
		const o = await run(`for (let i = 0; i < 200; i++) console.log(i);`, { limits: { maxOutputCalls: 100 } });
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("output");
		expect(o.console.length).toBe(100);
	});

	it("too many tool calls stop the script, even when it catches the error", async () => {
		const o = await run(
			`for (let i = 0; i < 10; i++) { try { await tools.echo({ i }); } catch {} } return "survived";`,
			{
				limits: { maxToolCalls: 3 },
			},
		);
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("tool-calls");
		expect(o.toolCalls).toBe(3);
	});
});

describe("codemode sandbox: abort", () => {
	it("stops a script waiting on tool calls; every call ends before the outcome", async () => {
		const controller = new AbortController();
		const ended: string[] = [];
		let started = 0;
		const host: ScriptHost = {
			call(_op, _name, args, signal) {
				started++;
				if (started === 2) controller.abort();
				return new Promise((_resolve, reject) => {
					const end = () => {
						ended.push(String(args.i));
						reject(new Error("aborted"));
					};
					if (signal.aborted) end();
					else signal.addEventListener("abort", end);
				});
			},
		};
		const o = await run(`await Promise.all([tools.echo({ i: 1 }), tools.echo({ i: 2 })]);`, {
			host,
			signal: controller.signal,
		});
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("aborted");
		expect(ended.sort()).toEqual(["1", "2"]);
	});

	it("stops a tight loop at once", async () => {
		const controller = new AbortController();
		const o = await run(`console.log("looping"); while (true) {}`, {
			signal: controller.signal,
			timeoutMs: 120_000,
			onProgress: () => controller.abort(),
		});
		expect(o.ok).toBe(false);
		expect(o.limit).toBe("aborted");
		expect(o.console).toEqual(["looping"]);
	});

	it("a worker is usable again after scripts were stopped", async () => {
		const o = await run(`return 40 + 2`);
		expect(texts(o)).toEqual(["42"]);
	});
});
