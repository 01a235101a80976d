// The row above the editor while the agent works or compacts: a spinner and
// a message. Extensions may change the default message, the spinner frames,
// or hide the row (ctx.ui.setWorkingMessage/setWorkingIndicator/
// setWorkingVisible); a change applies to the row on screen at once. An
// extension editor made with `embedWorkingStatus` draws the status in its top
// border instead: the row then stays empty (embedIn).
import { Container, Loader, type LoaderIndicatorOptions, type TUI } from "@pi/tui";
import type { WorkingStatusLine } from "../../../extensions/ui-components.js";
import type { ThemeSource } from "./cached.js";

/** An editor that draws the working status in its border (CustomEditor with embedWorkingStatus). */
export interface WorkingStatusHost {
	setWorkingStatus(status: WorkingStatusLine | undefined): void;
}

/** Whether `editor` asked to draw the working status itself. */
export function embedsWorkingStatus(editor: object): editor is WorkingStatusHost {
	const e = editor as { embedWorkingStatus?: unknown; setWorkingStatus?: unknown };
	return e.embedWorkingStatus === true && typeof e.setWorkingStatus === "function";
}

/** The default message while a run works. */
export const WORKING = "Working... (esc to interrupt)";

export class WorkingRow extends Container {
	private loader: Loader | undefined;
	/** What the app asked to show; "" when hidden. */
	private requested = "";
	private customMessage: string | undefined;
	private visible = true;
	private indicator: LoaderIndicatorOptions | undefined;
	/** The editor drawing the status instead of this row, if any. */
	private embedded: WorkingStatusHost | undefined;

	constructor(
		private readonly tui: TUI,
		private readonly theme: ThemeSource,
	) {
		super();
	}

	/** Shows the row with `message` (WORKING stands for the run's message, which extensions may replace). */
	show(message: string): void {
		this.requested = message;
		const shown = message === WORKING ? (this.customMessage ?? message) : message;
		if (this.loader) {
			this.loader.setMessage(shown);
			return;
		}
		if (!this.visible) return;
		const t = this.theme;
		this.loader = new Loader(
			this.tui,
			(s) => t().fg("accent", s),
			(s) => t().fg("muted", s),
			shown,
			this.indicator,
		);
		const loader = this.loader;
		if (this.embedded) this.embedded.setWorkingStatus(loader);
		else this.addChild(loader);
		this.tui.requestRender();
	}

	/** Draws the status in `editor`'s border from now on (undefined: in this row again). */
	embedIn(editor: WorkingStatusHost | undefined): void {
		if (editor === this.embedded) return;
		this.embedded?.setWorkingStatus(undefined);
		this.embedded = editor;
		this.reapply();
	}

	hide(): void {
		this.requested = "";
		this.removeLoader();
	}

	setMessage(message: string | undefined): void {
		this.customMessage = message;
		this.reapply();
	}

	setVisible(visible: boolean): void {
		this.visible = visible;
		this.reapply();
	}

	setIndicator(indicator: LoaderIndicatorOptions | undefined): void {
		this.indicator = indicator;
		this.reapply();
	}

	private removeLoader(): void {
		if (!this.loader) return;
		this.loader.stop();
		this.embedded?.setWorkingStatus(undefined);
		this.clear();
		this.loader = undefined;
		this.tui.requestRender();
	}

	private reapply(): void {
		const message = this.requested;
		if (!message) return;
		this.removeLoader();
		this.show(message);
	}
}
