// `/share`: the session's HTML page uploaded as a private (secret) GitHub gist
// through the `gh` CLI, when it is installed and logged in. Nothing else
// is ever uploaded, and without `gh` the user is told what to do instead.
import { execFile } from "node:child_process";

interface Ran {
	code: number | null;
	stdout: string;
	stderr: string;
	missing: boolean;
}

function run(args: string[], env: NodeJS.ProcessEnv, timeout: number): Promise<Ran> {
	return new Promise((done) => {
		execFile("gh", args, { env, timeout, encoding: "utf8" }, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
			done({ code, stdout: stdout ?? "", stderr: stderr ?? "", missing: error?.code === "ENOENT" });
		});
	});
}

export type ShareOutcome =
	| { ok: true; url: string }
	| { ok: false; reason: "no-gh" | "not-logged-in" | "failed"; message: string };

export interface ShareOptions {
	env?: NodeJS.ProcessEnv;
	description?: string;
	/** Bounded: a stuck `gh` must not hang the app. */
	timeoutMs?: number;
}

export async function shareHtmlAsGist(htmlFile: string, options: ShareOptions = {}): Promise<ShareOutcome> {
	const env = options.env ?? process.env;
	const timeout = options.timeoutMs ?? 60_000;
	const status = await run(["auth", "status"], env, timeout);
	if (status.missing) {
		return {
			ok: false,
			reason: "no-gh",
			message:
				"Sharing needs the GitHub CLI: install gh (https://cli.github.com), run `gh auth login`, then /share again. Or use /export and share the file yourself.",
		};
	}
	if (status.code !== 0) {
		return {
			ok: false,
			reason: "not-logged-in",
			message:
				"gh is not logged in: run `gh auth login`, then /share again. Or use /export and share the file yourself.",
		};
	}
	const args = ["gist", "create", "--desc", options.description ?? "pi session", htmlFile];
	const created = await run(args, env, timeout);
	const url = created.stdout
		.split("\n")
		.map((l) => l.trim())
		.find((l) => /^https:\/\/\S+$/.test(l));
	if (created.code !== 0 || !url) {
		const detail = (created.stderr || created.stdout).trim().split("\n").pop();
		return { ok: false, reason: "failed", message: `gh gist create failed${detail ? `: ${detail}` : ""}` };
	}
	return { ok: true, url };
}
