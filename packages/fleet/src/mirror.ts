// Copies the lines a run's child appends to its local JSONL file into the
// session store, in order, whole lines only (a line still being written waits
// for its "\n"). Flushes are serialised; a flush requested while one runs is
// folded into the next. Also adds each assistant message's usage to the
// session row (per-run token cost for `pi fleet status`). A flush that fails
// (PostgreSQL unreachable) copies nothing twice: the next one starts where the
// store ends, and usage not yet added is added then.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { SessionStoreWriter } from "@pi/coding-agent/internal";
import type { Pool } from "./db.js";

interface Usage {
	input?: number;
	output?: number;
	cost?: { total?: number };
}

export class Mirror {
	private chain: Promise<void> = Promise.resolve();
	private queued: Promise<void> | undefined;
	/** Usage of copied lines not yet added to the session row (kept when PostgreSQL went away in between). */
	private pending = { input: 0, output: 0, cost: 0 };

	constructor(
		private readonly pool: Pool,
		private readonly writer: SessionStoreWriter,
		private readonly file: string,
		private offset: number,
	) {}

	/** Resolves when every whole line written to the file so far is in the store. */
	flush(): Promise<void> {
		if (this.queued) return this.queued;
		const next = this.chain.then(() => {
			this.queued = undefined;
			return this.copy();
		});
		this.queued = next;
		this.chain = next.catch(() => {});
		return next;
	}

	private async copy(): Promise<void> {
		const whole = this.newLines();
		if (whole) {
			await this.writer.append(whole);
			this.offset += whole.length;
			this.countUsage(whole);
		}
		await this.addUsage();
	}

	/** The whole lines written to the file past what is copied, or undefined. */
	private newLines(): Buffer | undefined {
		const fd = openSync(this.file, "r");
		let bytes: Buffer;
		try {
			const size = fstatSync(fd).size;
			if (size <= this.offset) return undefined;
			bytes = Buffer.alloc(size - this.offset);
			let got = 0;
			while (got < bytes.length) {
				const n = readSync(fd, bytes, got, bytes.length - got, this.offset + got);
				if (n === 0) break;
				got += n;
			}
			bytes = bytes.subarray(0, got);
		} finally {
			closeSync(fd);
		}
		const end = bytes.lastIndexOf(10);
		return end < 0 ? undefined : bytes.subarray(0, end + 1);
	}

	private countUsage(bytes: Buffer): void {
		for (const line of bytes.toString("utf8").split("\n")) {
			if (!line.includes('"assistant"')) continue;
			try {
				const entry = JSON.parse(line) as { type?: string; message?: { role?: string; usage?: Usage } };
				const usage = entry.type === "message" && entry.message?.role === "assistant" ? entry.message.usage : undefined;
				if (!usage) continue;
				this.pending.input += usage.input ?? 0;
				this.pending.output += usage.output ?? 0;
				this.pending.cost += usage.cost?.total ?? 0;
			} catch {
				// a damaged line is the session's business, not the cost's
			}
		}
	}

	private async addUsage(): Promise<void> {
		const { input, output, cost } = this.pending;
		if (!input && !output && !cost) return;
		await this.pool.query(
			`UPDATE pi_fleet_sessions SET input_tokens = input_tokens + $2, output_tokens = output_tokens + $3,
			 cost = cost + $4, updated_at = now() WHERE id = $1`,
			[this.writer.sessionId, input, output, cost],
		);
		this.pending = { input: 0, output: 0, cost: 0 };
	}
}
