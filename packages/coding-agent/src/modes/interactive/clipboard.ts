// Copying text for /copy: OSC 52 (works through ssh and tmux with
// set-clipboard on) plus a native clipboard tool when one is on PATH.
import { spawn } from "node:child_process";
import { findExecutable } from "../../tools/search/executables.js";

/** The OSC 52 sequence that puts `text` on the system clipboard. */
export function osc52(text: string): string {
	return `\x1b]52;c;${Buffer.from(text, "utf8").toString("base64")}\x07`;
}

function nativeTool(): { cmd: string; args: string[] } | undefined {
	if (process.platform === "darwin") return { cmd: "pbcopy", args: [] };
	if (process.platform === "win32") return { cmd: "clip", args: [] };
	if (process.env.WAYLAND_DISPLAY && findExecutable(["wl-copy"])) return { cmd: "wl-copy", args: [] };
	if (process.env.DISPLAY) {
		if (findExecutable(["xclip"])) return { cmd: "xclip", args: ["-selection", "clipboard"] };
		if (findExecutable(["xsel"])) return { cmd: "xsel", args: ["--clipboard", "--input"] };
	}
	return undefined;
}

/** Copies through a native tool if there is one; resolves to whether it worked. */
export function copyWithTool(text: string): Promise<boolean> {
	const tool = nativeTool();
	if (!tool) return Promise.resolve(false);
	return new Promise((resolve) => {
		try {
			const child = spawn(tool.cmd, tool.args, { stdio: ["pipe", "ignore", "ignore"] });
			child.on("error", () => resolve(false));
			child.on("close", (code) => resolve(code === 0));
			// A tool that exits without reading (xclip with no X server to talk to) fails the write with
			// EPIPE: without a listener that error ended pi. It is a failed copy (the caller says OSC 52 only).
			child.stdin.on("error", () => resolve(false));
			child.stdin.end(text);
		} catch {
			resolve(false);
		}
	});
}

function imageReader(): { cmd: string; args: string[] } | undefined {
	if (process.platform === "darwin" && findExecutable(["pngpaste"])) return { cmd: "pngpaste", args: ["-"] };
	if (process.env.WAYLAND_DISPLAY && findExecutable(["wl-paste"]))
		return { cmd: "wl-paste", args: ["--no-newline", "--type", "image/png"] };
	if (process.env.DISPLAY && findExecutable(["xclip"]))
		return { cmd: "xclip", args: ["-selection", "clipboard", "-t", "image/png", "-o"] };
	return undefined;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

/**
 * A PNG from the system clipboard, when a clipboard tool is on PATH and the
 * clipboard holds an image; undefined otherwise.
 */
export function readClipboardImage(): Promise<Buffer | undefined> {
	const tool = imageReader();
	if (!tool) return Promise.resolve(undefined);
	return new Promise((resolve) => {
		try {
			const child = spawn(tool.cmd, tool.args, { stdio: ["ignore", "pipe", "ignore"] });
			const chunks: Buffer[] = [];
			child.stdout.on("data", (d: Buffer) => chunks.push(d));
			child.on("error", () => resolve(undefined));
			child.on("close", (code) => {
				const data = Buffer.concat(chunks);
				resolve(code === 0 && data.subarray(0, 4).equals(PNG_MAGIC) ? data : undefined);
			});
		} catch {
			resolve(undefined);
		}
	});
}
