// Generates the search benchmark tree (default 50,000 files, ~500 MB) outside
// the repo. Deterministic; skipped when the tree already exists with the same
// parameters. Usage: node bench/tools-tree.mjs [dir] [files] [avgKB]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function generateSearchTree(root, files = 50_000, avgKB = 10) {
	const stamp = join(root, ".bench-tree.json");
	const params = JSON.stringify({ files, avgKB, version: 3 });
	if (existsSync(stamp) && readFileSync(stamp, "utf8") === params) return root;
	let seed = 1234567;
	const rand = () => {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		return seed / 0x7fffffff;
	};
	const words = (
		"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore " +
		"magna aliqua function return const let var import export class interface type async await promise resolve " +
		"reject value result error handler request response buffer stream chunk offset length index count total"
	).split(" ");
	// A pool of text blocks keeps generation fast; each file also gets unique lines.
	const blocks = Array.from({ length: 64 }, () => {
		const lines = [];
		let size = 0;
		while (size < avgKB * 1024 * 2) {
			const n = 4 + Math.floor(rand() * 10);
			const line = Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(" ");
			lines.push(`\t${line};`);
			size += line.length + 3;
		}
		return lines;
	});
	const exts = [".ts", ".js", ".md", ".txt", ".json", ".log"];
	const perDir = 100;
	let bytes = 0;
	for (let i = 0; i < files; i++) {
		const d = Math.floor(i / perDir);
		const dir = join(root, `pkg${d % 20}`, `mod${Math.floor(d / 20) % 25}`, `part${d}`);
		if (i % perDir === 0) {
			mkdirSync(dir, { recursive: true });
			if (d % 10 === 0) writeFileSync(join(dir, ".gitignore"), "*.log\ngenerated/\n");
		}
		const block = blocks[i % blocks.length];
		const want = Math.floor(avgKB * 1024 * (0.5 + rand()));
		const start = Math.floor(rand() * (block.length / 2));
		const out = [`// file ${i}`];
		let size = 0;
		for (let k = start; size < want; k = (k + 1) % block.length) {
			out.push(block[k]);
			size += block[k].length + 1;
		}
		// Rare token: one file in 250.
		if (i % 250 === 7) out.splice(Math.floor(out.length / 2), 0, `\tconst marker = "XYZZY_${i}";`);
		const text = `${out.join("\n")}\n`;
		bytes += text.length;
		writeFileSync(join(dir, `file${i}${exts[i % exts.length]}`), text);
	}
	writeFileSync(join(root, ".gitignore"), "node_modules/\n");
	// A git work tree, like most searched code; rg/fd then apply .gitignore without extra flags.
	spawnSync("git", ["init", "-q", root]);
	writeFileSync(stamp, params);
	console.error(`generated ${files} files, ${(bytes / 1024 / 1024).toFixed(0)} MB in ${root}`);
	return root;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const dir = process.argv[2] ?? "/tmp/pi-bench-tools-tree";
	generateSearchTree(dir, Number(process.argv[3] ?? 50_000), Number(process.argv[4] ?? 10));
}
