// `<agentDir>/mcp.log`: server logging notifications and stdio servers'
// stderr, one line each: `<time> [<server>] <level> <logger>: <message>`.
// Past 5 MB the file moves to `mcp.log.1`. Logging never throws: a log that
// cannot be written must not break a connection.
import { appendFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

const MAX_BYTES = 5 * 1024 * 1024;

export class McpLog {
	readonly path: string;
	constructor(agentDir: string) {
		this.path = join(agentDir, "mcp.log");
	}

	write(server: string, level: string, logger: string | undefined, message: string): void {
		const oneLine = message.replace(/\r?\n/g, "\\n");
		const line = `${new Date().toISOString()} [${server}] ${level}${logger ? ` ${logger}` : ""}: ${oneLine}\n`;
		try {
			mkdirSync(dirname(this.path), { recursive: true });
			try {
				if (statSync(this.path).size > MAX_BYTES) renameSync(this.path, `${this.path}.1`);
			} catch {
				// no file yet
			}
			appendFileSync(this.path, line, { mode: 0o600 });
		} catch {
			// a log that cannot be written is not worth failing a server over
		}
	}
}
