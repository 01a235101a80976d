import { getKeybindings } from "../keybindings.js";
import { Loader } from "./loader.js";

/** A Loader that Escape cancels, exposing an AbortSignal for the work it waits on. */
export class CancellableLoader extends Loader {
	private readonly controller = new AbortController();
	/** Called when the user presses Escape. */
	onAbort?: () => void;

	get signal(): AbortSignal {
		return this.controller.signal;
	}

	get aborted(): boolean {
		return this.controller.signal.aborted;
	}

	handleInput(data: string): void {
		if (getKeybindings().matches(data, "tui.select.cancel") && !this.aborted) {
			this.controller.abort();
			this.stop();
			this.onAbort?.();
		}
	}

	dispose(): void {
		this.stop();
	}
}
