/** The component contract and the basic container. */

/**
 * A piece of UI. `render(width)` returns the lines to show, each at most
 * `width` columns wide (the TUI truncates lines that are wider). Styles do not
 * carry from one line to the next: the TUI resets SGR and OSC 8 after each line.
 */
export interface Component {
	render(width: number): string[];
	/** Keyboard input (raw chunks, see `matchesKey`) while the component has focus. */
	handleInput?(data: string): void;
	/** Receive Kitty key release events too (filtered out by default). */
	wantsKeyRelease?: boolean;
	/** Drop cached render state (e.g. after a theme change). */
	invalidate?(): void;
}

/**
 * A component that shows a text cursor. While focused it emits
 * `CURSOR_MARKER` at the cursor position; the TUI removes the marker and
 * moves the hardware cursor there, so IME candidate windows appear in place.
 */
export interface Focusable {
	focused: boolean;
}

export function isFocusable(component: Component | null | undefined): component is Component & Focusable {
	return !!component && typeof (component as Partial<Focusable>).focused === "boolean";
}

/** Zero-width APC sequence marking the cursor position in rendered output. */
export const CURSOR_MARKER = "\x1b_pi:c\x07";

/** Stacks children vertically. */
export class Container implements Component {
	children: Component[] = [];

	addChild(component: Component): void {
		this.children.push(component);
	}

	/** Insert a child before another (or at the end when `before` is absent). */
	insertChildBefore(component: Component, before: Component): void {
		const i = this.children.indexOf(before);
		if (i === -1) this.children.push(component);
		else this.children.splice(i, 0, component);
	}

	removeChild(component: Component): void {
		const i = this.children.indexOf(component);
		if (i !== -1) this.children.splice(i, 1);
	}

	clear(): void {
		this.children = [];
	}

	invalidate(): void {
		for (const child of this.children) child.invalidate?.();
	}

	render(width: number): string[] {
		const out: string[] = [];
		for (const child of this.children) {
			const lines = child.render(width);
			for (let i = 0; i < lines.length; i++) out.push(lines[i]);
		}
		return out;
	}
}

/**
 * Draws `text` (usually one character) as a visible cursor cell — reverse
 * video, as the built-in inputs draw theirs — for components that show a
 * cursor of their own next to `CURSOR_MARKER` (which only places the hidden
 * hardware cursor).
 */
export function renderFakeCursor(text: string): string {
	return `\x1b[7m${text || " "}\x1b[27m`;
}
