// A --require probe for the built CLI that writes, in order, what happened when during a start: the
// first read of a file whose path ends with a given suffix, and each write to stdout holding a given
// string. For tests of what the CLI does before its code loads (the early frame, the terminal query).
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface OrderProbe {
	/** NODE_OPTIONS that load the probe. */
	nodeOptions: string;
	/** The events so far, in order; they are cleared for the next start. */
	take(): string[];
}

/** `reads`: path suffix -> event (noted once); `writes`: text in a stdout write -> event (noted each time). */
export function orderProbe(
	dir: string,
	marks: { reads: Record<string, string>; writes: Record<string, string> },
): OrderProbe {
	const out = join(dir, "order-events");
	const file = join(dir, "order-probe.cjs");
	writeFileSync(
		file,
		[
			`const fs = require("node:fs");`,
			`const reads = ${JSON.stringify(Object.entries(marks.reads))};`,
			`const writes = ${JSON.stringify(Object.entries(marks.writes))};`,
			`const note = (what) => fs.appendFileSync(${JSON.stringify(out)}, what + "\\n");`,
			`const seen = new Set();`,
			`for (const name of ["openSync", "readFileSync"]) {`,
			`	const real = fs[name];`,
			`	fs[name] = function (path, ...rest) {`,
			`		for (const [suffix, what] of reads)`,
			`			if (!seen.has(what) && String(path).endsWith(suffix)) { seen.add(what); note(what); }`,
			`		return real.call(this, path, ...rest);`,
			`	};`,
			`}`,
			`const stdout = process.stdout;`,
			`const write = stdout.write;`,
			`stdout.write = function (chunk, ...rest) {`,
			`	for (const [text, what] of writes) if (String(chunk).includes(text)) note(what);`,
			`	return write.call(this, chunk, ...rest);`,
			`};`,
		].join("\n"),
	);
	return {
		nodeOptions: `--require ${file}`,
		take: () => {
			const events = existsSync(out) ? readFileSync(out, "utf8").trim().split("\n") : [];
			rmSync(out, { force: true });
			return events;
		},
	};
}
