/** Undo/redo history of state snapshots (deep-cloned on push). */
export class UndoStack<S> {
	private undoStack: S[] = [];
	private redoStack: S[] = [];
	private readonly limit: number;

	constructor(limit = 200) {
		this.limit = limit;
	}

	/** Record the state before a change; clears the redo history. */
	push(state: S): void {
		this.undoStack.push(structuredClone(state));
		if (this.undoStack.length > this.limit) this.undoStack.shift();
		this.redoStack = [];
	}

	/** Step back: returns the state to restore, remembering `current` for redo. */
	undo(current: S): S | undefined {
		const prev = this.undoStack.pop();
		if (prev !== undefined) this.redoStack.push(structuredClone(current));
		return prev;
	}

	/** Step forward again after an undo. */
	redo(current: S): S | undefined {
		const next = this.redoStack.pop();
		if (next !== undefined) this.undoStack.push(structuredClone(current));
		return next;
	}

	/** Pop the newest snapshot without recording a redo step. */
	pop(): S | undefined {
		return this.undoStack.pop();
	}

	clear(): void {
		this.undoStack = [];
		this.redoStack = [];
	}

	get length(): number {
		return this.undoStack.length;
	}
}
