// The storage SessionTree (tree.ts) is built on: entry i (file order) is a row
// of typed arrays (parent position, type, role, provider/model, byte range,
// line) plus its id (id-index.ts), with the interned names the rows code into,
// the labels and the session name — and the form an index file stores all of
// it in (`TreeColumns`: `storable` / `columns` / `restore`). Rows instead of
// objects: 100k record objects were most of a resume's garbage-collection time
// and ~185 bytes each; a row is ~50. SessionTree extends this class rather than
// holding it, so its hot paths (a row added per line at open, parent walks)
// reach the arrays as its own fields. Rows are added by SessionTree (`newRow`).
import { type IdColumns, IdIndex } from "./id-index.js";
import {
	asciiString,
	type IndexedRun,
	LAZY_TYPE_NAMES,
	R_CODE,
	R_END,
	R_MODEL_END,
	R_MODEL_START,
	R_PARENT_START,
	R_PROVIDER_END,
	R_PROVIDER_START,
	R_ROLE_CODE,
	R_START,
	ROLE_NAMES,
} from "./line-scan.js";

/**
 * The tree of a loaded file as an index file stores it (session/index-cache.ts): its columns for
 * rows [0, count), the interned names they code into, labels and session name. Only a tree whose
 * every entry came from the file with its parent resolved is stored (`storable`).
 */
export interface TreeColumns {
	count: number;
	/** `names[code]` for codes 1.. (code 0 is "none"). */
	names: string[];
	parents: Int32Array<ArrayBuffer>;
	types: Int32Array<ArrayBuffer>;
	roles: Int32Array<ArrayBuffer>;
	providers: Int32Array<ArrayBuffer>;
	models: Int32Array<ArrayBuffer>;
	offsets: Float64Array<ArrayBuffer>;
	lengths: Int32Array<ArrayBuffer>;
	lines: Int32Array<ArrayBuffer>;
	ids: IdColumns;
	/** Labels in the tree's order: [target id, label, timestamp]. */
	labels: [string, string, string][];
	name: string | undefined;
}

/** Where an entry is in the file, for warnings about it. */
export interface EntryPlace {
	id: string;
	line: number;
	offset: number;
	length: number;
}

/** `parents[i]` of a root. */
export const NO_PARENT = -1;
/** `parents[i]` of an entry whose parent was not in the tree when it was added (its id is in `missing`). */
export const MISSING_PARENT = -2;

/** Columns of `code`'s last-name cache. */
export const TYPE = 0;
export const ROLE = 1;
export const PROVIDER = 2;
export const MODEL = 3;

export class TreeColumnStore {
	protected count = 0;
	/** Id of each entry (file order), and the row of each id. */
	protected readonly ids = new IdIndex();
	protected parents = new Int32Array(1024);
	/** Codes into `names` (0: none) for the entry type, message role, and an assistant's provider and model. */
	protected types = new Int32Array(1024);
	protected roles = new Int32Array(1024);
	protected providers = new Int32Array(1024);
	protected models = new Int32Array(1024);
	/** Byte range in the session file; offset -1 when the entry exists only in memory. */
	protected offsets = new Float64Array(1024);
	protected lengths = new Int32Array(1024);
	/** 1-based line in the file (0: not from a file), for warnings. */
	protected lines = new Int32Array(1024);
	/** Parent id of entries whose parent was not in the tree when they were added (rare: damage, hand edits). */
	protected readonly missing = new Map<number, string>();
	/** Interned names (types, roles, providers, models); index 0 is "none". */
	protected readonly names: (string | undefined)[] = [undefined];
	protected readonly nameCodes = new Map<string, number>();
	/** Per column (type, role, provider, model): the last name coded and its code. */
	private readonly lastNames: (string | undefined)[] = [undefined, undefined, undefined, undefined];
	private readonly lastCodes = new Int32Array(4);
	protected labels = new Map<string, { label: string; timestamp: string }>();
	protected name: string | undefined;
	/** The leaf's row (-1: none, or an id not in the tree, kept in `leafElsewhere`). */
	protected leafRow = -1;
	protected leafElsewhere: string | null = null;
	/** For `appendIndexedRun`: the codes of the scanner's type codes and role codes (0: not looked up yet). */
	private readonly runTypeCodes = new Int32Array(LAZY_TYPE_NAMES.length + 1);
	private readonly runRoleCodes = new Int32Array(ROLE_NAMES.length + 1);
	/** For `appendIndexedRun`: the last provider and model read (`code` finds a repeat without a lookup). */
	private runProvider: string | undefined;
	private runModel: string | undefined;

	get size(): number {
		return this.count;
	}

	/** The code of `name` (interned on first use); `column` keeps the last one at hand. */
	protected code(name: string | undefined, column: number): number {
		if (name === undefined) return 0;
		// The scanner hands the same string objects line after line: no lookup for a repeat.
		if (name === this.lastNames[column]) return this.lastCodes[column];
		let c = this.nameCodes.get(name);
		if (c === undefined) {
			c = this.names.length;
			this.names.push(name);
			this.nameCodes.set(name, c);
		}
		this.lastNames[column] = name;
		this.lastCodes[column] = c;
		return c;
	}

	/** Room for `n` more rows (one allocation instead of doublings), the id table sized for `likely` of them. */
	reserve(n: number, likely = n): void {
		const need = this.count + n;
		this.ids.reserve(n, likely);
		if (need <= this.parents.length) return;
		const cap = Math.max(need, this.parents.length * 2);
		const grow = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
			const b = make(cap);
			b.set(a.subarray(0, this.count));
			return b;
		};
		const int = (k: number) => new Int32Array(k);
		this.parents = grow(this.parents, int);
		this.types = grow(this.types, int);
		this.roles = grow(this.roles, int);
		this.providers = grow(this.providers, int);
		this.models = grow(this.models, int);
		this.lengths = grow(this.lengths, int);
		this.lines = grow(this.lines, int);
		this.offsets = grow(this.offsets, (k) => new Float64Array(k));
	}

	/**
	 * Rows for the records of `run` while each is the plain case of an open (IdIndex
	 * `appendNewRun`: a root or the child of the row before it, a new id): their columns straight
	 * from the records, the leaf moved to the last. Returns how many it added (0: the first record
	 * is not such a line; the caller adds it the usual way).
	 */
	appendIndexedRun(run: IndexedRun): number {
		const first = this.count;
		const want = run.to - run.from;
		if (first + want > this.parents.length) this.reserve(want);
		const added = this.ids.appendNewRun(run);
		if (added === 0) return 0;
		const { records, stride, base, buf } = run;
		const { parents, types, roles, providers, models, offsets, lengths, lines } = this;
		const typeCodes = this.runTypeCodes;
		const roleCodes = this.runRoleCodes;
		for (let k = 0, r = run.from * stride; k < added; k++, r += stride) {
			const row = first + k;
			parents[row] = records[r + R_PARENT_START] < 0 ? NO_PARENT : row - 1;
			const type = records[r + R_CODE];
			let typeCode = typeCodes[type];
			if (typeCode === 0) typeCode = typeCodes[type] = this.code(LAZY_TYPE_NAMES[type - 1], TYPE);
			types[row] = typeCode;
			const role = records[r + R_ROLE_CODE];
			let roleCode = 0;
			if (role > 0) {
				roleCode = roleCodes[role];
				if (roleCode === 0) roleCode = roleCodes[role] = this.code(ROLE_NAMES[role - 1], ROLE);
			}
			roles[row] = roleCode;
			const providerStart = records[r + R_PROVIDER_START];
			if (providerStart < 0) {
				providers[row] = 0;
				models[row] = 0;
			} else {
				this.runProvider = asciiString(buf, providerStart - base, records[r + R_PROVIDER_END] - base, this.runProvider);
				this.runModel = asciiString(
					buf,
					records[r + R_MODEL_START] - base,
					records[r + R_MODEL_END] - base,
					this.runModel,
				);
				providers[row] = this.code(this.runProvider, PROVIDER);
				models[row] = this.code(this.runModel, MODEL);
			}
			const start = records[r + R_START] - base;
			offsets[row] = run.bufStart + start;
			lengths[row] = records[r + R_END] - base - start;
			lines[row] = run.line + k;
		}
		this.count = first + added;
		this.leafRow = this.count - 1;
		this.leafElsewhere = null;
		return added;
	}

	// ---------------------------------------------------------------- index files

	/**
	 * Whether `columns()` describes this tree completely: every entry has its byte range in the
	 * file, every parent is a row, and the leaf is the last row (as a load leaves it).
	 */
	storable(): boolean {
		if (this.missing.size > 0) return false;
		if (this.count > 0 ? this.leafRow !== this.count - 1 : this.leafElsewhere !== null) return false;
		const offsets = this.offsets;
		for (let i = 0; i < this.count; i++) if (offsets[i] < 0) return false;
		return true;
	}

	/** Rows [0, n) as an index file stores them (views into the columns), with the labels and name now. */
	columns(n = this.count): TreeColumns {
		return {
			count: n,
			names: this.names.slice(1) as string[],
			parents: this.parents.subarray(0, n),
			types: this.types.subarray(0, n),
			roles: this.roles.subarray(0, n),
			providers: this.providers.subarray(0, n),
			models: this.models.subarray(0, n),
			offsets: this.offsets.subarray(0, n),
			lengths: this.lengths.subarray(0, n),
			lines: this.lines.subarray(0, n),
			ids: this.ids.columns(n),
			labels: [...this.labels].map(([id, l]) => [id, l.label, l.timestamp]),
			name: this.name,
		};
	}

	/**
	 * Become the tree `c` describes (an empty tree only): every entry is read from the file on
	 * use, the leaf is the last row. The arrays are kept as given (they may have room for more
	 * rows than `count`; grown by copying when full).
	 */
	restore(c: TreeColumns): void {
		if (this.count !== 0) throw new Error("SessionTree.restore: not empty");
		this.ids.restore(c.ids, c.count);
		this.parents = c.parents;
		this.types = c.types;
		this.roles = c.roles;
		this.providers = c.providers;
		this.models = c.models;
		this.offsets = c.offsets;
		this.lengths = c.lengths;
		this.lines = c.lines;
		for (const name of c.names) {
			this.nameCodes.set(name, this.names.length);
			this.names.push(name);
		}
		for (const [id, label, timestamp] of c.labels) this.labels.set(id, { label, timestamp });
		this.name = c.name;
		this.count = c.count;
		this.leafRow = c.count - 1;
		this.leafElsewhere = null;
	}

	// ---------------------------------------------------------------- rows

	idAt(i: number): string {
		return this.ids.idAt(i);
	}
	typeAt(i: number): string {
		return this.names[this.types[i]] ?? "";
	}
	/** The code `typeCodeAt` gives entries of this type (-1 when none has it): walks compare numbers. */
	typeCode(type: string): number {
		return this.nameCodes.get(type) ?? -1;
	}
	typeCodeAt(i: number): number {
		return this.types[i];
	}
	/** Whether entry i has this type. */
	isType(i: number, type: string): boolean {
		const c = this.nameCodes.get(type);
		return c !== undefined && this.types[i] === c;
	}
	/** The rows among `rows` whose entry has this type (one lookup for the walk, not one per row). */
	rowsOfType(rows: ArrayLike<number>, type: string): number[] {
		const out: number[] = [];
		const c = this.nameCodes.get(type);
		if (c === undefined) return out;
		const types = this.types;
		for (let k = 0; k < rows.length; k++) if (types[rows[k]] === c) out.push(rows[k]);
		return out;
	}
	roleAt(i: number): string | undefined {
		return this.names[this.roles[i]];
	}
	providerAt(i: number): string | undefined {
		return this.names[this.providers[i]];
	}
	modelAt(i: number): string | undefined {
		return this.names[this.models[i]];
	}
	offsetAt(i: number): number {
		return this.offsets[i];
	}
	lengthAt(i: number): number {
		return this.lengths[i];
	}
	lineAt(i: number): number {
		return this.lines[i];
	}
	placeOf(i: number): EntryPlace {
		return { id: this.ids.idAt(i), line: this.lines[i], offset: this.offsets[i], length: this.lengths[i] };
	}
}
