// Opens a URL in the user's browser when this machine has one. Over SSH or
// without a display nothing is started: the URL is shown to copy instead.
import { spawn } from "node:child_process";

export function canOpenBrowser(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
	if (env.SSH_CONNECTION || env.SSH_TTY) return false;
	if (platform === "darwin" || platform === "win32") return true;
	return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Starts the platform's opener detached; returns false when none could be started. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
	if (!canOpenBrowser(env)) return false;
	if (!/^https?:\/\//.test(url)) return false;
	const [command, args] =
		process.platform === "darwin"
			? ["open", [url]]
			: process.platform === "win32"
				? ["rundll32", ["url.dll,FileProtocolHandler", url]]
				: ["xdg-open", [url]];
	try {
		const child = spawn(command, args, { detached: true, stdio: "ignore", env });
		child.on("error", () => {});
		child.unref();
		return true;
	} catch {
		return false;
	}
}
