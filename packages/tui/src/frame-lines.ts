/**
 * The rows of the current frame, rebuilt incrementally.
 *
 * The component tree is flattened into leaves (plain Containers are walked
 * through, so their children's cached arrays are seen directly). Leaves are
 * compared line by line with the rows kept from the last frame (cheap: cached
 * renders return the very same strings); rows before the first difference
 * stay in place and only the rest is rebuilt, so a frame that appends a token
 * to the last message costs about the size of that message, not of the
 * transcript. Comparing contents rather than array identity keeps components
 * that mutate their arrays in place, or rebuild equal ones, correct.
 */
import { type Component, Container } from "./component.js";

interface Leaf {
	lines: string[];
}

export interface FrameUpdate {
	/** Rows before this index are identical to the previous frame. */
	start: number;
	/** The previous frame's rows from `start` on. */
	oldTail: string[];
	/** Row count of the previous frame. */
	prevLength: number;
}

function isPlainContainer(c: Component): c is Container {
	return c instanceof Container && c.render === Container.prototype.render;
}

export class FrameLines {
	/** Current rows; mutated in place (cursor marker removal, overlays). */
	readonly lines: string[] = [];
	private width = -1;
	/** First row altered after being copied from a leaf (must be rebuilt next frame). */
	private dirtyFrom = Number.POSITIVE_INFINITY;

	/** Forget everything (next update rebuilds all rows). */
	reset(): void {
		this.width = -1;
		this.dirtyFrom = 0;
	}

	/** Take `rows` as the previous frame (already on the screen); the next update diffs against them. */
	adopt(rows: readonly string[]): void {
		this.lines.length = 0;
		for (const row of rows) this.lines.push(row);
		this.reset();
	}

	private current: FrameUpdate = { start: 0, oldTail: [], prevLength: 0 };

	/**
	 * Call before changing row `row` (or later rows) in place. The row then
	 * no longer equals its leaf's line, and if it was in the unchanged prefix,
	 * the prefix ends there (its old value joins `oldTail` for diffing).
	 */
	beforeModify(row: number): void {
		if (row < this.dirtyFrom) this.dirtyFrom = row;
		const cur = this.current;
		if (row < cur.start) {
			cur.oldTail = this.lines.slice(row, cur.start).concat(cur.oldTail);
			cur.start = row;
		}
	}

	update(root: Container, width: number): FrameUpdate {
		const leaves: Leaf[] = [];
		collect(root, width, leaves);
		const lines = this.lines;
		let start = 0;
		if (width === this.width) {
			// Rows from dirtyFrom on were altered after the last build: never trust them.
			const limit = Math.min(lines.length, this.dirtyFrom);
			scan: for (const leaf of leaves) {
				const ls = leaf.lines;
				for (let j = 0; j < ls.length; j++) {
					if (start >= limit || lines[start] !== ls[j]) break scan;
					start++;
				}
			}
		}
		if (start > lines.length) start = lines.length;
		const prevLength = lines.length;
		const oldTail = lines.slice(start);
		lines.length = start;
		// Append rows from `start` on, beginning inside the leaf that holds it.
		let acc = 0;
		for (const leaf of leaves) {
			const ls = leaf.lines;
			const end = acc + ls.length;
			if (end > start) {
				for (let j = acc >= start ? 0 : start - acc; j < ls.length; j++) lines.push(ls[j]);
			}
			acc = end;
		}
		this.width = width;
		this.dirtyFrom = Number.POSITIVE_INFINITY;
		this.current = { start, oldTail, prevLength };
		return this.current;
	}
}

function collect(container: Container, width: number, out: Leaf[]): void {
	for (const child of container.children) {
		if (isPlainContainer(child)) collect(child, width, out);
		else out.push({ lines: child.render(width) });
	}
}
