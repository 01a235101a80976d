import type { TUI } from "../tui.js";
import { Text } from "./text.js";

export interface LoaderIndicatorOptions {
	/** Animation frames; an empty array hides the indicator. */
	frames?: string[];
	/** Ms between frames. */
	intervalMs?: number;
}

const DEFAULT_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const DEFAULT_INTERVAL = 80;

/** A spinner with a message; asks the TUI for a frame on each tick. */
export class Loader extends Text {
	private spinnerColorFn: (s: string) => string;
	private messageColorFn: (s: string) => string;
	private message: string;
	private frames: string[] = DEFAULT_FRAMES;
	private intervalMs = DEFAULT_INTERVAL;
	private frame = 0;
	private timer: NodeJS.Timeout | undefined;
	private readonly ui: TUI;
	private lastInner: string[] | undefined;
	private lastOut: string[] = [];
	private current = "";

	constructor(
		ui: TUI,
		spinnerColorFn: (s: string) => string,
		messageColorFn: (s: string) => string,
		message = "Loading...",
		indicator?: LoaderIndicatorOptions,
	) {
		super("", 1, 0);
		this.ui = ui;
		this.spinnerColorFn = spinnerColorFn;
		this.messageColorFn = messageColorFn;
		this.message = message;
		this.setIndicator(indicator);
		this.start();
	}

	/** A blank line, then the spinner line. */
	override render(width: number): string[] {
		const inner = super.render(width);
		if (inner !== this.lastInner) {
			this.lastInner = inner;
			this.lastOut = ["", ...inner];
		}
		return this.lastOut;
	}

	start(): void {
		this.stopTimer();
		this.updateDisplay();
		if (this.frames.length > 1) {
			this.timer = setInterval(() => {
				this.frame = (this.frame + 1) % this.frames.length;
				this.updateDisplay();
			}, this.intervalMs);
			this.timer.unref?.();
		}
	}

	stop(): void {
		this.stopTimer();
	}

	private stopTimer(): void {
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
	}

	setMessage(message: string): void {
		this.message = message;
		this.updateDisplay();
	}

	setIndicator(indicator?: LoaderIndicatorOptions): void {
		this.frames = indicator?.frames !== undefined ? [...indicator.frames] : DEFAULT_FRAMES;
		this.intervalMs = indicator?.intervalMs && indicator.intervalMs > 0 ? indicator.intervalMs : DEFAULT_INTERVAL;
		this.frame = 0;
		if (this.timer) this.start();
		else this.updateDisplay();
	}

	/** The spinner frame and message as one styled line, without padding (to draw it elsewhere). */
	get line(): string {
		return this.current;
	}

	private updateDisplay(): void {
		const glyph = this.frames.length > 0 ? `${this.spinnerColorFn(this.frames[this.frame % this.frames.length])} ` : "";
		this.current = glyph + this.messageColorFn(this.message);
		this.setText(this.current);
		this.ui.requestRender();
	}
}
