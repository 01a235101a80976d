// models.json accepts JSONC: // and /* */ comments and trailing commas.
// Removing them while keeping every other character's line and column lets
// the strict parser's error positions still point into the original text.

/** Replaces comments with spaces and drops trailing commas (also replaced by a space). */
export function stripJsonc(text: string): string {
	const out = text.split("");
	let i = 0;
	let lastSignificant = -1;
	while (i < out.length) {
		const ch = out[i];
		if (ch === '"') {
			i++;
			while (i < out.length && out[i] !== '"') i += out[i] === "\\" ? 2 : 1;
			lastSignificant = i;
			i++;
			continue;
		}
		if (ch === "/" && out[i + 1] === "/") {
			while (i < out.length && out[i] !== "\n") out[i++] = " ";
			continue;
		}
		if (ch === "/" && out[i + 1] === "*") {
			out[i++] = " ";
			out[i++] = " ";
			while (i < out.length && !(out[i] === "*" && out[i + 1] === "/")) {
				if (out[i] !== "\n") out[i] = " ";
				i++;
			}
			if (i < out.length) {
				out[i++] = " ";
				out[i++] = " ";
			}
			continue;
		}
		if ((ch === "}" || ch === "]") && lastSignificant >= 0 && out[lastSignificant] === ",") out[lastSignificant] = " ";
		if (!" \t\r\n".includes(ch)) lastSignificant = i;
		i++;
	}
	return out.join("");
}
