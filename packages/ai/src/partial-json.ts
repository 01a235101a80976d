/**
 * Incremental parser for streamed tool-call arguments. Each `feed()` costs
 * only the new text, so a call streamed in 10k tiny deltas stays linear, where
 * re-parsing the whole prefix per delta would be quadratic. `value` is the
 * best-effort object so far: unfinished strings show their text so far,
 * unfinished keys and literals are left out. Anything that is not a JSON
 * object, or is malformed, sets `failed`; callers then fall back to a
 * whole-text parse.
 */

type Container = Record<string, unknown> | unknown[];
interface Frame {
	container: Container;
	/** Object: the key whose value is being read. Array: the index being filled. */
	slot: string | number | undefined;
}

enum State {
	Start,
	Value,
	KeyOrEnd,
	Key,
	KeyString,
	Colon,
	AfterValue,
	StringValue,
	NumberValue,
	Literal,
	ValueOrEnd,
	Done,
}

const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER_CHARS = /[-+0-9.eE]/;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

export class IncrementalJsonParser {
	failed = false;
	private state = State.Start;
	private readonly stack: Frame[] = [];
	private root: Record<string, unknown> = {};
	private buffer = "";
	/** 0: none; 1: after a backslash; 2+: inside \uXXXX with hex digits in `unicode`. */
	private escape = 0;
	private unicode = "";

	/** The arguments parsed so far (a live object, updated in place). */
	get value(): Record<string, unknown> {
		return this.root;
	}

	feed(text: string): void {
		if (this.failed) return;
		try {
			this.consume(text);
			if (this.state === State.StringValue) this.assign(this.buffer);
			else if (this.state === State.NumberValue) {
				const n = Number(this.buffer);
				if (this.buffer !== "" && Number.isFinite(n)) this.assign(n);
			}
		} catch {
			this.failed = true;
		}
	}

	private consume(text: string): void {
		let i = 0;
		const n = text.length;
		while (i < n) {
			switch (this.state) {
				case State.StringValue:
				case State.KeyString:
					i = this.readString(text, i);
					continue;
				case State.NumberValue: {
					const c = text[i];
					if (NUMBER_CHARS.test(c)) {
						this.buffer += c;
						i++;
						continue;
					}
					const value = Number(this.buffer);
					if (!Number.isFinite(value)) throw new Error("bad number");
					this.assign(value);
					this.state = State.AfterValue;
					continue;
				}
				case State.Literal: {
					const c = text[i];
					if (c >= "a" && c <= "z") {
						this.buffer += c;
						i++;
						if (this.buffer.length > 5) throw new Error("bad literal");
						continue;
					}
					this.finishLiteral();
					continue;
				}
			}
			const c = text[i];
			i++;
			if (WS.has(c)) continue;
			switch (this.state) {
				case State.Start:
					if (c !== "{") throw new Error("not an object");
					this.stack.push({ container: this.root, slot: undefined });
					this.state = State.KeyOrEnd;
					break;
				case State.KeyOrEnd:
				case State.Key:
					if (c === '"') {
						this.buffer = "";
						this.state = State.KeyString;
					} else if (c === "}" && this.state === State.KeyOrEnd) this.close();
					else throw new Error("expected key");
					break;
				case State.Colon:
					if (c !== ":") throw new Error("expected colon");
					this.state = State.Value;
					break;
				case State.Value:
				case State.ValueOrEnd:
					if (c === "]" && this.state === State.ValueOrEnd) this.close();
					else this.startValue(c);
					break;
				case State.AfterValue: {
					const top = this.stack[this.stack.length - 1];
					if (c === ",") {
						if (Array.isArray(top.container)) {
							top.slot = top.container.length;
							this.state = State.Value;
						} else this.state = State.Key;
					} else if ((c === "}" && !Array.isArray(top.container)) || (c === "]" && Array.isArray(top.container)))
						this.close();
					else throw new Error("expected , or close");
					break;
				}
				case State.Done:
					throw new Error("text after the value");
			}
		}
	}

	private startValue(c: string): void {
		const top = this.stack[this.stack.length - 1];
		if (Array.isArray(top.container) && top.slot === undefined) top.slot = top.container.length;
		if (c === '"') {
			this.buffer = "";
			this.state = State.StringValue;
			this.assign("");
		} else if (c === "{") {
			const obj: Record<string, unknown> = {};
			this.assign(obj);
			this.stack.push({ container: obj, slot: undefined });
			this.state = State.KeyOrEnd;
		} else if (c === "[") {
			const arr: unknown[] = [];
			this.assign(arr);
			this.stack.push({ container: arr, slot: undefined });
			this.state = State.ValueOrEnd;
		} else if (c === "-" || (c >= "0" && c <= "9")) {
			this.buffer = c;
			this.state = State.NumberValue;
		} else if (c === "t" || c === "f" || c === "n") {
			this.buffer = c;
			this.state = State.Literal;
		} else throw new Error("bad value");
	}

	private finishLiteral(): void {
		const literal =
			this.buffer === "true" ? true : this.buffer === "false" ? false : this.buffer === "null" ? null : undefined;
		if (literal === undefined) throw new Error("bad literal");
		this.assign(literal);
		this.state = State.AfterValue;
	}

	private readString(text: string, start: number): number {
		let i = start;
		const n = text.length;
		while (i < n) {
			if (this.escape === 1) {
				const c = text[i++];
				if (c === "u") {
					this.escape = 2;
					this.unicode = "";
				} else {
					const decoded = ESCAPES[c];
					if (decoded === undefined) throw new Error("bad escape");
					this.buffer += decoded;
					this.escape = 0;
				}
				continue;
			}
			if (this.escape === 2) {
				this.unicode += text[i++];
				if (this.unicode.length === 4) {
					const code = Number.parseInt(this.unicode, 16);
					if (Number.isNaN(code)) throw new Error("bad unicode escape");
					this.buffer += String.fromCharCode(code);
					this.escape = 0;
				}
				continue;
			}
			const quote = text.indexOf('"', i);
			const slash = text.indexOf("\\", i);
			const next = quote < 0 ? slash : slash < 0 ? quote : Math.min(quote, slash);
			if (next < 0) {
				this.buffer += text.slice(i);
				return n;
			}
			this.buffer += text.slice(i, next);
			i = next + 1;
			if (next === slash) {
				this.escape = 1;
				continue;
			}
			// Closing quote.
			if (this.state === State.KeyString) {
				this.stack[this.stack.length - 1].slot = this.buffer;
				this.state = State.Colon;
			} else {
				this.assign(this.buffer);
				this.state = State.AfterValue;
			}
			this.buffer = "";
			return i;
		}
		return i;
	}

	private assign(value: unknown): void {
		const top = this.stack[this.stack.length - 1];
		if (!top || top.slot === undefined) return;
		if (Array.isArray(top.container)) top.container[top.slot as number] = value;
		else if (top.slot === "__proto__")
			// JSON.parse makes "__proto__" an own property; plain assignment would set the prototype.
			Object.defineProperty(top.container, top.slot, { value, enumerable: true, writable: true, configurable: true });
		else top.container[top.slot as string] = value;
	}

	private close(): void {
		this.stack.pop();
		this.state = this.stack.length === 0 ? State.Done : State.AfterValue;
	}
}
