// Pi session export, page script part 2 of 3: tool calls with their
// arguments and results (bash output, edit diffs, read files as code).
globalThis.piTools = (() => {
	const { el, fmtInt, imageEl, longText, codeBlock, diffBlock, langOfPath, MAX_TEXT } = globalThis.piText;

	function textOf(content) {
		if (typeof content === "string") return content;
		if (!Array.isArray(content)) return "";
		return content
			.filter((b) => b && b.type === "text" && typeof b.text === "string")
			.map((b) => b.text)
			.join("\n");
	}
	function argText(args, key) {
		return args && typeof args[key] === "string" ? args[key] : "";
	}
	function toolHead(name, args) {
		const head = el("div", "tool-head");
		head.append(el("span", "tool-name", name));
		const a = args || {};
		let main = "";
		if (name === "bash") main = `$ ${argText(a, "command")}`;
		else if (a.path || a.file_path) {
			main = String(a.path || a.file_path);
			if (name === "read" && (a.offset || a.limit))
				main += `:${a.offset || 1}${a.limit ? `-${(a.offset || 1) + a.limit - 1}` : ""}`;
		}
		if (name === "grep" || name === "find") main = `${argText(a, "pattern")}${a.path ? `  in ${a.path}` : ""}`;
		if (main) head.append(el("span", "tool-arg", main));
		return head;
	}
	function toolArgs(name, args, body) {
		const a = args || {};
		if (name === "bash" || name === "read" || name === "ls" || name === "grep" || name === "find") return;
		if (name === "write" && typeof a.content === "string") {
			const d = el("details");
			d.open = a.content.split("\n").length <= 30;
			d.append(el("summary", "", `content (${fmtInt(a.content.split("\n").length)} lines)`));
			d.append(
				codeBlock(a.content.length > MAX_TEXT * 5 ? a.content.slice(0, MAX_TEXT * 5) : a.content, langOfPath(a.path)),
			);
			body.append(d);
			return;
		}
		if (name === "edit") return; // the diff in the result says more; see toolResult
		const keys = Object.keys(a);
		if (keys.length === 0) return;
		body.append(codeBlock(JSON.stringify(a, null, 2), "json"));
	}
	function editFallback(args) {
		const a = args || {};
		const edits = Array.isArray(a.edits)
			? a.edits
			: [{ oldText: a.oldText ?? a.old_string, newText: a.newText ?? a.new_string }];
		const lines = [];
		for (const e of edits) {
			if (!e) continue;
			for (const l of String(e.oldText ?? "").split("\n")) lines.push(`-${l}`);
			for (const l of String(e.newText ?? "").split("\n")) lines.push(`+${l}`);
			lines.push("@@");
		}
		lines.pop();
		return diffBlock(lines.join("\n"));
	}
	function toolResultBody(name, args, result, body) {
		const m = result.message || result;
		const isError = Boolean(m.isError);
		const label = el("div", "tool-result-label", isError ? "error" : "result");
		const details = m.details || {};
		if (name === "edit" && !isError) {
			body.append(typeof details.diff === "string" && details.diff ? diffBlock(details.diff) : editFallback(args));
			return;
		}
		body.append(label);
		const text = textOf(m.content);
		if (name === "read" && !isError) longText(body, text, (t) => codeBlock(t, langOfPath(args?.path)));
		else if (text) longText(body, text, (t) => el("pre", "wrap", t));
		if (Array.isArray(m.content)) for (const b of m.content) if (b && b.type === "image") body.append(imageEl(b));
		if (!text && !(Array.isArray(m.content) && m.content.some((b) => b && b.type === "image")))
			body.append(el("div", "muted", "(no output)"));
	}
	function toolCard(name, args, resultEntry) {
		const card = el("div", "tool");
		card.append(toolHead(String(name), args));
		const body = el("div", "tool-body");
		toolArgs(name, args, body);
		if (resultEntry) {
			if (resultEntry.message?.isError) card.classList.add("error");
			toolResultBody(name, args, resultEntry, body);
		} else if (name === "edit") body.append(editFallback(args));
		card.append(body);
		return card;
	}
	return { textOf, toolHead, toolCard };
})();
