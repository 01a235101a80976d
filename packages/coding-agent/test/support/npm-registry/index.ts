// A real npm registry for tests: verdaccio in a child process on loopback,
// storage in a temporary directory, a user created through the registry API
// and an npmrc (`npm_config_userconfig`) that points npm at it with that
// user's token. Start once per test file; `publish` packs and publishes a
// directory with the real npm CLI.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface NpmRegistry {
	url: string;
	/** Where verdaccio keeps packages (`<storage>/<name>/<name>-<version>.tgz`). */
	storageDir: string;
	/** Environment that makes npm (and pi's npm) use this registry. */
	env: NodeJS.ProcessEnv;
	publish(dir: string): Promise<void>;
	close(): Promise<void>;
}

export async function startNpmRegistry(): Promise<NpmRegistry> {
	const root = mkdtempSync(join(tmpdir(), "pi-registry-"));
	const storage = join(root, "storage");
	mkdirSync(storage, { recursive: true });
	const config = join(root, "config.yaml");
	writeFileSync(
		config,
		[
			`storage: ${JSON.stringify(storage)}`,
			"auth:",
			"  htpasswd:",
			`    file: ${JSON.stringify(join(root, "htpasswd"))}`,
			"uplinks: {}",
			"packages:",
			"  '**':",
			"    access: $all",
			"    publish: $authenticated",
			"    unpublish: $authenticated",
			"log: { type: stdout, format: pretty, level: error }",
			"",
		].join("\n"),
	);
	const child: ChildProcess = spawn(process.execPath, [fileURLToPath(new URL("server.mjs", import.meta.url)), config], {
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	const port = await new Promise<number>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`verdaccio did not start: ${output}`)), 60_000);
		child.stdout?.on("data", (d) => {
			output += d;
			const m = /PORT (\d+)/.exec(output);
			if (m) {
				clearTimeout(timer);
				resolve(Number(m[1]));
			}
		});
		child.stderr?.on("data", (d) => {
			output += d;
		});
		child.on("exit", (code) => {
			clearTimeout(timer);
			reject(new Error(`verdaccio exited (${code}): ${output}`));
		});
	});
	const url = `http://127.0.0.1:${port}/`;
	const res = await fetch(`${url}-/user/org.couchdb.user:pi-test`, {
		method: "PUT",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ name: "pi-test", password: "pi-test-password", type: "user", roles: [] }),
	});
	const { token } = (await res.json()) as { token?: string };
	if (!token) throw new Error(`could not create a registry user (${res.status})`);
	const npmrc = join(root, "npmrc");
	writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
	const env: NodeJS.ProcessEnv = {
		npm_config_userconfig: npmrc,
		npm_config_registry: url,
		npm_config_cache: join(root, "npm-cache"),
		npm_config_update_notifier: "false",
		npm_config_fetch_retries: "0",
	};
	return {
		url,
		storageDir: storage,
		env,
		async publish(dir) {
			await run("npm", ["publish", "--registry", url, "--loglevel=error"], {
				cwd: dir,
				// Its own cache: a published tarball in the installers' cache would hide a damaged one in the registry.
				env: { ...process.env, ...env, npm_config_cache: join(root, "publish-cache") },
			});
		},
		async close() {
			await new Promise<void>((resolve) => {
				if (child.exitCode !== null) return resolve();
				child.once("exit", () => resolve());
				child.kill("SIGTERM");
				setTimeout(() => child.kill("SIGKILL"), 5000).unref();
			});
			rmSync(root, { recursive: true, force: true });
		},
	};
}
