/**
 * pi-tui streaming render: a 10k-line markdown transcript on an 80×40
 * terminal while 2,000 tokens are appended one at a time to the last message.
 * Ours (packages/tui/src) and the reference @mariozechner/pi-tui@0.73.1 render
 * the same content into in-memory terminals, alternating token by token in the
 * same process. One frame is rendered per token.
 *
 *   npx tsx bench/tui-render.bench.ts [--tokens N] [--lines N]
 *
 * Reports median and p99 time per frame (wall clock, and CPU time of the
 * process, which leaves out time spent preempted on a busy machine) and bytes
 * written per appended token.
 */
import { Chalk } from "chalk";
import * as ours from "../packages/tui/src/index.js";

const REF = `${process.env.PI_REFERENCE_DIR ?? "/work/ref073"}/node_modules/@mariozechner/pi-tui/dist/index.js`;

const args = process.argv.slice(2);
const argNum = (name: string, dflt: number) => {
	const at = args.indexOf(name);
	return at >= 0 ? Number(args[at + 1]) : dflt;
};
const TOKENS = argNum("--tokens", 2000);
const TARGET_LINES = argNum("--lines", 10_000);
const COLS = 80;
const ROWS = 40;

const chalk = new Chalk({ level: 3 });
const theme = {
	heading: (t: string) => chalk.bold.cyan(t),
	link: (t: string) => chalk.blue(t),
	linkUrl: (t: string) => chalk.gray(t),
	code: (t: string) => chalk.yellow(t),
	codeBlock: (t: string) => chalk.green(t),
	codeBlockBorder: (t: string) => chalk.gray(t),
	quote: (t: string) => chalk.italic(t),
	quoteBorder: (t: string) => chalk.gray(t),
	hr: (t: string) => chalk.gray(t),
	listBullet: (t: string) => chalk.cyan(t),
	bold: (t: string) => chalk.bold(t),
	italic: (t: string) => chalk.italic(t),
	strikethrough: (t: string) => chalk.strikethrough(t),
	underline: (t: string) => chalk.underline(t),
};

/** Deterministic pseudo-random words. */
let seed = 42;
const rand = () => {
	seed = (seed * 1103515245 + 12345) & 0x7fffffff;
	return seed / 0x7fffffff;
};
const WORDS =
	"the agent reads files and runs commands then edits code while streaming tokens into a long transcript with **bold** words and `inline code` plus [links](https://example.com/docs) and more".split(
		" ",
	);
const word = () => WORDS[Math.floor(rand() * WORDS.length)];
const sentence = (n: number) => Array.from({ length: n }, word).join(" ");

function message(i: number): string {
	const parts = [`## Step ${i}`, sentence(40), `- ${sentence(8)}\n- ${sentence(10)}\n- ${sentence(6)}`];
	if (i % 3 === 0) parts.push("```ts\nconst x = 1;\nfunction f(a: number) {\n  return a * 2;\n}\n```");
	if (i % 4 === 0) parts.push(`> ${sentence(20)}`);
	parts.push(sentence(60));
	return parts.join("\n\n");
}

/** Token stream: words and spaces, a paragraph break every ~60 tokens. */
function tokens(n: number): string[] {
	const out: string[] = [];
	for (let i = 0; i < n; i++) {
		if (i > 0 && i % 60 === 0) out.push("\n\n");
		else out.push(i % 2 === 0 ? word() : " ");
	}
	return out;
}

interface Impl {
	name: string;
	tui: { addChild(c: unknown): void };
	render: () => void;
	term: MemTerm;
	last: { setText(t: string): void };
}

/** In-memory terminal: counts bytes, keeps nothing. */
class MemTerm {
	columns = COLS;
	rows = ROWS;
	bytes = 0;
	kittyProtocolActive = false;
	start() {}
	stop() {}
	async drainInput() {}
	write(d: string) {
		this.bytes += Buffer.byteLength(d);
	}
	moveBy() {}
	hideCursor() {}
	showCursor() {}
	clearLine() {}
	clearFromCursor() {}
	clearScreen() {}
	setTitle() {}
	setProgress() {}
}

async function build(name: string, lib: typeof ours, messages: string[]): Promise<Impl> {
	const term = new MemTerm();
	// biome-ignore lint/suspicious/noExplicitAny: both libraries' TUI constructors take a Terminal
	const tui = new (lib.TUI as any)(term);
	for (const m of messages) {
		tui.addChild(new lib.Markdown(m, 1, 0, theme));
		tui.addChild(new lib.Spacer(1));
	}
	const last = new lib.Markdown("", 1, 0, theme);
	tui.addChild(last);
	// Ours renders synchronously with renderNow(); the reference's frame function is doRender().
	const render = typeof tui.renderNow === "function" ? () => tui.renderNow() : () => tui.doRender();
	return { name, tui, render, term, last };
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
}

async function main() {
	const ref = (await import(REF)) as typeof ours;
	// Grow the transcript until it renders to TARGET_LINES lines at 80 columns.
	const messages: string[] = [];
	const probe = new ours.Container();
	let lines = 0;
	while (lines < TARGET_LINES) {
		const m = message(messages.length);
		messages.push(m);
		const md = new ours.Markdown(m, 1, 0, theme);
		probe.addChild(md);
		lines += md.render(COLS).length + 1;
	}
	const only = args.includes("--only-ours") ? ["ours"] : args.includes("--only-ref") ? ["reference 0.73.1"] : null;
	const impls = [await build("reference 0.73.1", ref, messages), await build("ours", ours, messages)].filter(
		(i) => !only || only.includes(i.name),
	);
	// First frame: the whole transcript is rendered and written (reported, not part of the per-token figures).
	for (const impl of impls) {
		const t0 = performance.now();
		impl.render();
		console.log(`${impl.name}: first full frame ${(performance.now() - t0).toFixed(1)} ms, ${impl.term.bytes} bytes`);
	}
	const stream = tokens(TOKENS);
	const times: number[][] = impls.map(() => []);
	const cpuTimes: number[][] = impls.map(() => []);
	const bytesBefore = impls.map((i) => i.term.bytes);
	let text = "";
	for (const tok of stream) {
		text += tok;
		impls.forEach((impl, k) => {
			const c0 = process.cpuUsage();
			const t0 = performance.now();
			impl.last.setText(text);
			impl.render();
			times[k].push(performance.now() - t0);
			const c = process.cpuUsage(c0);
			cpuTimes[k].push((c.user + c.system) / 1000);
		});
	}
	console.log(`transcript: ${messages.length} messages, ${lines} lines at ${COLS}x${ROWS}; ${TOKENS} tokens appended`);
	console.log("| implementation | wall median ms/frame | wall p99 | CPU median ms/frame | CPU p99 | bytes/token |");
	console.log("|---|---|---|---|---|---|");
	const rows = impls.map((impl, k) => {
		const wall = times[k].slice().sort((a, b) => a - b);
		const cpu = cpuTimes[k].slice().sort((a, b) => a - b);
		return {
			name: impl.name,
			median: percentile(wall, 0.5),
			p99: percentile(wall, 0.99),
			cpuMedian: percentile(cpu, 0.5),
			cpuP99: percentile(cpu, 0.99),
			bytes: (impl.term.bytes - bytesBefore[k]) / TOKENS,
		};
	});
	const f = (n: number) => n.toFixed(3);
	for (const r of rows) {
		console.log(
			`| ${r.name} | ${f(r.median)} | ${f(r.p99)} | ${f(r.cpuMedian)} | ${f(r.cpuP99)} | ${r.bytes.toFixed(1)} |`,
		);
	}
	const [r, o] = rows;
	if (!o) return;
	const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
	console.log(
		`ratio ours/reference: wall median ${ratio(o.median, r.median)}, wall p99 ${ratio(o.p99, r.p99)}, CPU median ${ratio(o.cpuMedian, r.cpuMedian)}, CPU p99 ${ratio(o.cpuP99, r.cpuP99)}, bytes ${ratio(o.bytes, r.bytes)}`,
	);
}

await main();
