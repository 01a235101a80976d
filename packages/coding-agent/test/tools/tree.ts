/** Generates a deterministic source-like tree with nested ignore files for search-engine comparisons. */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

function write(root: string, rel: string, content: string | Buffer): void {
	const p = join(root, rel);
	mkdirSync(dirname(p), { recursive: true });
	writeFileSync(p, content);
}

/** Small PRNG so the tree is the same on every run. */
function rng(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s * 1664525 + 1013904223) >>> 0;
		return s / 2 ** 32;
	};
}

const WORDS = ["alpha", "needle", "beta", "Needle", "gamma", "needed42", "delta", "haystack", "NEEDLE", "omega"];

export function generateTree(root: string, options: { git?: boolean; files?: number } = {}): void {
	const rand = rng(42);
	const count = options.files ?? 120;
	const dirs = ["", "src", "src/lib", "src/lib/deep", "sub", "sub/inner", "docs", "build", ".hidden", "Zeta", "zeta"];
	const exts = [".ts", ".md", ".txt", ".log", ".js"];
	for (let i = 0; i < count; i++) {
		const dir = dirs[Math.floor(rand() * dirs.length)];
		const ext = exts[Math.floor(rand() * exts.length)];
		const lines: string[] = [];
		const n = 1 + Math.floor(rand() * 30);
		for (let l = 0; l < n; l++) {
			const words = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => WORDS[Math.floor(rand() * WORDS.length)]);
			lines.push(words.join(" "));
		}
		write(root, join(dir, `file${i}${ext}`), `${lines.join("\n")}\n`);
	}
	write(root, ".gitignore", "*.log\nbuild/\n/docs/private.md\n");
	write(root, "sub/.gitignore", "!keep.log\nsecret*\n");
	write(root, "sub/keep.log", "needle kept by negation\n");
	write(root, "sub/secret.txt", "needle hidden by sub/.gitignore\n");
	write(root, "src/.ignore", "generated.ts\n");
	write(root, "src/lib/.gitignore", "# directories only\ndeep/\n");
	write(root, "src/generated.ts", "needle in .ignore'd file\n");
	write(root, "docs/private.md", "needle anchored ignore\n");
	write(root, "sub/inner/docs/private.md", "needle not anchored here\n");
	write(root, ".env", "NEEDLE=1\n");
	write(root, "crlf.txt", "needle at end\r\nsecond needle\r\n");
	write(root, "binary.bin", Buffer.concat([Buffer.from("needle\n"), Buffer.from([0, 1, 2]), Buffer.from("needle\n")]));
	write(root, "unicode/caf\u00e9 \u00fcber.txt", "needle \u00fcnicode \u2014 line\n");
	write(root, "long.txt", `needle ${"x".repeat(700)}\n`);
	write(root, "a.b/x.txt", "needle in dotted dir\n");
	write(root, "a/x.txt", "needle in a\n");
	write(root, "a-b/x.txt", "needle in a-b\n");
	mkdirSync(join(root, "empty-dir"), { recursive: true });
	symlinkSync("a/x.txt", join(root, "link-to-file"));
	symlinkSync("src", join(root, "link-to-dir"));
	if (options.git) {
		write(root, ".git/HEAD", "ref: refs/heads/main\nneedle\n");
		write(root, ".git/info/exclude", "excluded-by-info.txt\n");
		write(root, "excluded-by-info.txt", "needle excluded via .git/info/exclude\n");
	}
}
