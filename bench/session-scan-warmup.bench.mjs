// Where a first open's scan of a large session spends its time while V8's JIT
// warms up (issue 25). In a fresh child process per run, the generated
// 100k-entry (~97 MB) session is scanned twice: "cold" (the first scan of the
// process: the scan's functions start unoptimized, as in every `pi` run) and
// "warm" (the same scan again, its code optimized). Each 1 MB piece read is
// timed (when scan.ts feeds it to the content hash), so the table shows how
// much of the cold scan's extra time falls on its first pieces. Two cases: the
// scan alone (scanFd with a sink that only counts lines) and the whole open's
// load (loadFromFd into a SessionTree, with the content hash a first open
// computes for its index).
//
//   node bench/session-scan-warmup.bench.mjs [runs=5] [entries=100000]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleOurs, median } from "./session-bundle.mjs";
import { generateSession } from "./session-gen.mjs";

const runs = Number(process.argv[2] ?? 5);
const entries = Number(process.argv[3] ?? 100_000);

if (process.argv[2] === "--child") {
	const [, , , modulePath, file, kind] = process.argv;
	const { openSync, closeSync, fstatSync } = await import("node:fs");
	const m = await import(modulePath);
	const once = () => {
		const pieces = [];
		const fd = openSync(file, "r");
		const start = performance.now();
		let last = start;
		const content = new m.ContentHash();
		// Stands in for the content hash scan.ts feeds each piece read: times the piece, hashes it when loading.
		const hash = {
			update(scanner, s, e) {
				const now = performance.now();
				pieces.push(now - last);
				last = now;
				if (kind === "load") content.update(scanner, s, e);
			},
			lose() {},
		};
		if (kind === "scan") {
			let lines = 0;
			m.scanFd(
				fd,
				file,
				() => {},
				() => {},
				0,
				1,
				() => true,
				() => lines++,
				hash,
			);
		} else {
			const tree = new m.SessionTree();
			// As loadSessionFile reserves for a file of this size.
			const size = fstatSync(fd).size;
			tree.reserve(Math.floor(size / 256), Math.floor(size / 1024));
			m.loadFromFd(fd, m.newLoadState(file), tree, 0, 1, hash);
		}
		const total = performance.now() - start;
		closeSync(fd);
		// pieces[k]: from the read of piece k-1 to the read of piece k, i.e. the scan of piece k-1.
		const scanned = pieces.slice(1);
		const first6 = scanned.slice(0, 6).reduce((a, b) => a + b, 0);
		const rest = scanned.slice(6);
		return { total, first6, steadyPerMB: median(rest) };
	};
	const cold = once();
	const warm = once();
	console.log(JSON.stringify({ cold, warm }));
	process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "pi-bench-warmup-"));
const file = join(dir, "big.jsonl");
generateSession(file, entries, 1800);
const ours = bundleOurs();
const f1 = (x) => x.toFixed(1);
const rows = [];
for (const kind of ["scan", "load"]) {
	const results = [];
	for (let i = 0; i < runs; i++) {
		const out = execFileSync(process.execPath, [import.meta.filename, "--child", ours, file, kind], {
			encoding: "utf8",
		});
		results.push(JSON.parse(out));
	}
	const med = (pick) => median(results.map(pick));
	rows.push(
		`| ${kind === "scan" ? "scan alone (scanFd, counting sink)" : "load (loadFromFd into the tree, + content hash)"} | ` +
			`${f1(med((r) => r.cold.total))} | ${f1(med((r) => r.warm.total))} | ` +
			`${f1(med((r) => r.cold.first6))} | ${f1(med((r) => r.warm.first6))} | ` +
			`${f1(med((r) => r.cold.steadyPerMB))} / ${f1(med((r) => r.warm.steadyPerMB))} |`,
	);
}
console.log(`\n### first open's scan, cold vs warm JIT (${entries} entries, ${runs} runs, medians)\n`);
console.log("| case | cold ms | warm ms | first 6 MB cold ms | first 6 MB warm ms | ms per MB after, cold / warm |");
console.log("|---|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\nnode ${process.version}; load average (1 min) ${(await import("node:os")).loadavg()[0].toFixed(1)}`);
rmSync(dir, { recursive: true, force: true });
