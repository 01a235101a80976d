// The exported page in headless Chromium: built with the BUILT `pi --export`,
// opened from disk with every outgoing request intercepted. Screenshots in
// light and dark are kept in test-artifacts/export/ (gitignored).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, CLI } from "../cli/support.js";
import { type BrowserHandle, hasChromium, launchBrowser } from "./browser.js";
import {
	ANSWER,
	BASH_OUTPUT,
	BRANCH_SUMMARY,
	COMPACTION_SUMMARY,
	INJECT_PROMPT,
	LABEL,
	longSession,
	MODEL_HTML,
	OTHER_BRANCH_ANSWER,
	PROMPT,
	QUOTED_FILE,
	SESSION_NAME,
	SKILL_INSTRUCTIONS,
	THINKING,
	writeSessionFile,
} from "./fixtures.js";

/** Evaluates an expression in the page (a string: the test code has no DOM types). */
const js = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

const ARTEFACTS = resolve(__dirname, "../../../../test-artifacts/export");

if (!hasChromium) console.warn("export browser tests skipped: no chromium at /usr/bin/chromium (set PI_TEST_CHROMIUM)");

describe.skipIf(!hasChromium)("exported page in Chromium", () => {
	let dir: string;
	let html: string;
	let browser: BrowserHandle;

	beforeAll(async () => {
		assertBuilt();
		dir = mkdtempSync(join(tmpdir(), "pi-export-browser-"));
		const session = join(dir, "2026-11-30T10-00-00-000Z_0190f000.jsonl");
		writeSessionFile(session);
		const r = spawnSync(process.execPath, [CLI, "--export", session], {
			cwd: dir,
			env: { PATH: process.env.PATH, HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent") },
			encoding: "utf8",
		});
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		html = join(dir, "pi-session-2026-11-30T10-00-00-000Z_0190f000.html");
		expect(r.stdout.trim()).toBe(`Exported to: ${html}`);
		mkdirSync(ARTEFACTS, { recursive: true });
		browser = await launchBrowser();
	}, 60_000);

	afterAll(async () => {
		await browser?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("shows prompt, answer, tool content, summaries and names; no errors, no requests, nothing injected", async () => {
		const { page, requests, errors } = await browser.open(html);
		const text = await js<string>(page, "document.body.innerText");
		for (const s of [
			PROMPT,
			ANSWER,
			BASH_OUTPUT,
			COMPACTION_SUMMARY,
			BRANCH_SUMMARY,
			SESSION_NAME,
			LABEL,
			"fake/fake-model",
		]) {
			expect(text).toContain(s);
		}
		// Injection cases are visible as text…
		expect(text).toContain(INJECT_PROMPT);
		expect(text).toContain(MODEL_HTML);
		expect(text).toContain(QUOTED_FILE);
		// …and none of them became markup or ran.
		const dom = await js<{
			pwned: number | null;
			iframes: number;
			scripts: number;
			onclick: number;
			title: string;
			images: string[];
			diffAdd: string[];
			thinkingOpen: boolean;
		}>(
			page,
			`({
				pwned: window.__pwned ?? null,
				iframes: document.querySelectorAll("iframe").length,
				scripts: document.querySelectorAll("script").length,
				onclick: document.querySelectorAll("[onclick],[onerror]").length,
				title: document.title,
				images: [...document.querySelectorAll("img")].map((i) => i.src.slice(0, 22)),
				diffAdd: [...document.querySelectorAll(".diff .add")].map((e) => e.textContent),
				thinkingOpen: [...document.querySelectorAll("details")].some((d) => d.textContent.includes("tokenizer") && d.open),
			})`,
		);
		expect(dom.pwned).toBeNull();
		expect(dom.iframes).toBe(0);
		expect(dom.scripts).toBe(4); // the exporter's own: meta, entries, index, page script
		expect(dom.onclick).toBe(0);
		expect(dom.title).toBe(`${SESSION_NAME} · Pi session`);
		expect(dom.images.length).toBeGreaterThanOrEqual(2);
		for (const src of dom.images) expect(src.startsWith("data:image/png;base64")).toBe(true);
		expect(dom.diffAdd).toContain("+const depth = stack.length;");
		// Thinking is collapsed but present.
		expect(dom.thinkingOpen).toBe(false);
		// Each answer carries its model, token usage and cost.
		const usages = await js<string[]>(
			page,
			`[...document.querySelectorAll("#messages .usage")].map((e) => e.textContent)`,
		);
		expect(usages).toContain("fake/fake-model · in 1.2k · out 80 · cache read 300 · $0.01");
		// User prompts are markdown; a /skill: expansion is a collapsed block naming the skill.
		const user = await js<{ strong: string[]; code: string[]; skill: string; skillOpen: boolean; skillText: string }>(
			page,
			`(() => {
				const cards = [...document.querySelectorAll("#messages .entry.user .card")];
				const skill = document.querySelector("#messages .entry.user details.skill");
				return {
					strong: cards.flatMap((c) => [...c.querySelectorAll("strong")].map((e) => e.textContent)),
					code: cards.flatMap((c) => [...c.querySelectorAll("code")].map((e) => e.textContent)),
					skill: skill?.querySelector("summary")?.textContent ?? "",
					skillOpen: skill?.open ?? true,
					skillText: skill?.textContent ?? "",
				};
			})()`,
		);
		expect(user.strong).toContain("npm");
		expect(user.code).toContain("tsc");
		expect(user.skill).toBe("[skill] setup-project");
		expect(user.skillOpen).toBe(false);
		expect(user.skillText).toContain(SKILL_INSTRUCTIONS);
		expect(text).toContain("Set up the project with npm and tsc");
		expect(text).not.toContain("<skill name=");
		expect(await js<string>(page, "document.body.textContent")).toContain(THINKING);
		// The abandoned branch's answer is in the tree, not in the active view.
		const answers = await page.$$eval("#messages .entry.assistant", (els) => els.map((e) => e.textContent ?? ""));
		expect(answers.join("\n")).toContain(ANSWER);
		expect(answers.join("\n")).not.toContain(OTHER_BRANCH_ANSWER);
		// Code blocks are highlighted by language: keyword, comment and number spans.
		const code = await js<{ lang: string; kw: string[]; com: string[]; num: string[] }>(
			page,
			`(() => {
				const c = document.querySelector('#messages pre code[data-lang="ts"]');
				const of = (cls) => [...(c?.querySelectorAll("." + cls) ?? [])].map((e) => e.textContent);
				return { lang: c?.dataset.lang ?? "", kw: of("tok-kw"), com: of("tok-com"), num: of("tok-num") };
			})()`,
		);
		expect(code).toEqual({ lang: "ts", kw: ["const"], com: ["// comment"], num: ["1"] });
		// Model and thinking-level changes are lines of their own.
		const metaLines = await js<string[]>(
			page,
			`[...document.querySelectorAll("#messages .meta-line")].map((e) => e.textContent)`,
		);
		expect(metaLines).toContain("Model changed to fake/fake-model");
		expect(metaLines).toContain("Thinking level: medium");
		// The tree marks the active path and its leaf; the abandoned answer is off it.
		const tree = await js<{ text: string; onActive: boolean; leaf: boolean }[]>(
			page,
			`[...document.querySelectorAll("#tree .row")].map((r) => ({
				text: r.textContent,
				onActive: r.classList.contains("on-active"),
				leaf: r.classList.contains("is-leaf"),
			}))`,
		);
		const rowOf = (needle: string) => tree.find((r) => r.text.includes(needle));
		expect(rowOf(OTHER_BRANCH_ANSWER)).toMatchObject({ onActive: false, leaf: false });
		expect(rowOf(ANSWER)).toMatchObject({ onActive: true });
		expect(tree.filter((r) => r.leaf)).toHaveLength(1);
		expect(tree.filter((r) => r.leaf)[0].onActive).toBe(true);
		expect(tree.filter((r) => r.onActive).length).toBeGreaterThan(5);
		expect(errors).toEqual([]);
		expect(requests).toEqual([]);
		await page.screenshot({ path: join(ARTEFACTS, "export-light.png") });
		await page.close();
	}, 60_000);

	it("clicking a branch in the tree shows it", async () => {
		const { page, requests, errors } = await browser.open(html, { dark: true });
		expect(await js<string>(page, "document.documentElement.dataset.theme")).toBe("dark");
		await page.screenshot({ path: join(ARTEFACTS, "export-dark.png") });
		const rows = await page.$$eval(".row", (els) => els.map((e) => e.textContent ?? ""));
		const i = rows.findIndex((r) => r.includes(OTHER_BRANCH_ANSWER));
		expect(i).toBeGreaterThanOrEqual(0);
		const row = (await page.$$(".row"))[i];
		await row.click();
		const text = await js<string>(page, "document.getElementById('main').innerText");
		expect(text).toContain(OTHER_BRANCH_ANSWER);
		expect(text).not.toContain(BASH_OUTPUT); // the other branch has no tool results
		expect(text).toContain("back to the active branch");
		// Back to the active branch.
		await page.click("#show-active");
		expect(await js<string>(page, "document.body.innerText")).toContain(ANSWER);
		// The theme toggle switches to light.
		await page.click("#theme-toggle");
		expect(await js<string>(page, "document.documentElement.dataset.theme")).toBe("light");
		expect(errors).toEqual([]);
		expect(requests).toEqual([]);
		await page.close();
	}, 60_000);
});

/** The page's own state after a cold open: what exists in the DOM, and the longest task seen. */
async function pageShape(page: Page) {
	return js<{ elements: number; entries: number; rows: number; firstTurn: number; lastTurn: number }>(
		page,
		`(() => {
			const turns = [...document.querySelectorAll("#messages .entry")]
				.map((e) => /turn (\\d+)/.exec(e.textContent || ""))
				.filter(Boolean)
				.map((m) => Number(m[1]));
			return {
				elements: document.getElementsByTagName("*").length,
				entries: document.querySelectorAll("#messages .entry").length,
				rows: document.querySelectorAll("#tree .row").length,
				firstTurn: Math.min(...turns),
				lastTurn: Math.max(...turns),
			};
		})()`,
	);
}

describe.skipIf(!hasChromium)("a long exported session in Chromium (lazy rendering)", () => {
	let dir: string;
	let browser: BrowserHandle;
	const pages: Record<number, string> = {};

	beforeAll(async () => {
		assertBuilt();
		dir = mkdtempSync(join(tmpdir(), "pi-export-long-"));
		for (const turns of [150, 5_000]) {
			const session = join(dir, `long-${turns}.jsonl`);
			writeSessionFile(session, longSession(turns));
			const out = join(dir, `long-${turns}.html`);
			const r = spawnSync(process.execPath, [CLI, "--export", session, out], {
				cwd: dir,
				env: { PATH: process.env.PATH, HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent") },
				encoding: "utf8",
			});
			expect(r.status, r.stderr).toBe(0);
			pages[turns] = out;
		}
		browser = await launchBrowser();
	}, 120_000);

	afterAll(async () => {
		await browser?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("draws the same amount of DOM for 10,000 entries as for 300: the end of the active branch and the visible tree rows", async () => {
		const small = await browser.open(pages[150]);
		const smallShape = await pageShape(small.page);
		await small.page.close();
		const { page, errors, requests } = await browser.open(pages[5_000]);
		const shape = await pageShape(page);
		// 33x the entries, about the same page: only a window of the branch and the rows in view exist.
		expect(shape.elements).toBeLessThan(smallShape.elements * 1.5 + 200);
		expect(shape.entries).toBeLessThanOrEqual(100);
		expect(shape.rows).toBeLessThanOrEqual(120);
		expect(shape.lastTurn).toBe(4_999);
		expect(shape.firstTurn).toBeGreaterThan(4_900);
		expect(await js<string>(page, "document.getElementById('tree-count').textContent")).toContain("10,001 entries");

		// Scrolling the tree to the middle draws those rows (and only about a screenful).
		await js(page, `(() => { const t = document.getElementById("tree"); t.scrollTop = t.scrollHeight / 2; })()`);
		await page.waitForFunction(
			`[...document.querySelectorAll("#tree .row")].some((r) => /turn 2[45]\\d\\d /.test(r.textContent))`,
		);
		expect(await js<number>(page, `document.querySelectorAll("#tree .row").length`)).toBeLessThanOrEqual(120);

		// The side branch leaves from turn 2,500; depth-first rows put it right under that turn, in
		// view now. Clicking it shows its path around it.
		await page.waitForFunction(
			`[...document.querySelectorAll("#tree .row")].some((r) => r.textContent.includes("side branch question"))`,
		);
		await js(
			page,
			`[...document.querySelectorAll("#tree .row")].find((r) => r.textContent.includes("side branch question")).click()`,
		);
		await page.waitForFunction(`document.getElementById("messages").textContent.includes("side branch question")`);
		const side = await pageShape(page);
		expect(side.lastTurn).toBe(2_500);
		expect(side.entries).toBeLessThanOrEqual(100);

		// "Show earlier entries" adds one step (100 entries) before the window, not the whole branch.
		await js(
			page,
			`[...document.querySelectorAll("button.more")].find((b) => b.textContent.startsWith("Show earlier")).click()`,
		);
		const more = await pageShape(page);
		expect(more.entries - side.entries).toBeGreaterThan(50);
		expect(more.entries - side.entries).toBeLessThanOrEqual(100);
		expect(more.firstTurn).toBeLessThan(side.firstTurn);
		expect(errors).toEqual([]);
		expect(requests).toEqual([]);
		await page.close();
	}, 120_000);
});
