// Headless Chromium for the export tests: Debian's /usr/bin/chromium driven by
// puppeteer-core (no browser download), a fresh profile per launch, every
// request that would leave the page recorded and aborted.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";

export const CHROMIUM = process.env.PI_TEST_CHROMIUM ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

export interface OpenedPage {
	page: Page;
	/** URLs the page tried to load beyond itself and data: URIs. */
	requests: string[];
	/** Console errors and uncaught exceptions. */
	errors: string[];
}

export interface BrowserHandle {
	open(file: string, options?: { dark?: boolean; width?: number; height?: number }): Promise<OpenedPage>;
	close(): Promise<void>;
}

export async function launchBrowser(): Promise<BrowserHandle> {
	const { launch } = await import("puppeteer-core");
	const profile = mkdtempSync(join(tmpdir(), "pi-chromium-"));
	const browser: Browser = await launch({
		executablePath: CHROMIUM,
		headless: true,
		userDataDir: profile,
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-quic",
			"--no-first-run",
			"--disable-background-networking",
			"--disable-component-update",
			"--disable-sync",
			`--user-data-dir=${profile}`,
		],
	});
	return {
		async open(file, options = {}) {
			const page = await browser.newPage();
			await page.setViewport({ width: options.width ?? 1280, height: options.height ?? 900 });
			await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: options.dark ? "dark" : "light" }]);
			const requests: string[] = [];
			const errors: string[] = [];
			const self = `file://${file}`;
			await page.setRequestInterception(true);
			page.on("request", (req) => {
				const url = req.url();
				if (url === self || url.startsWith("data:")) void req.continue();
				else {
					requests.push(url);
					void req.abort();
				}
			});
			page.on("console", (msg) => {
				if (msg.type() === "error") errors.push(msg.text());
			});
			page.on("pageerror", (error) => errors.push(String(error)));
			await page.goto(self, { waitUntil: "load" });
			return { page, requests, errors };
		},
		async close() {
			await browser.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}
