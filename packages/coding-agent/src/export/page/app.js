// Pi session export, page script part 3 of 3: reads the data blocks the
// exporter wrote, draws the tree (virtualised: only visible rows exist) and
// renders a branch in a window of entries that grows on demand, parsing
// entries when first shown, so 100k-entry sessions open without freezing.
(() => {
	const { el, fmtInt, imageEl, longText, codeBlock, markdown } = globalThis.piText;
	const { toolHead, toolCard } = globalThis.piTools;
	const $ = (id) => document.getElementById(id);
	const META = JSON.parse($("pi-meta").textContent || "{}");
	const INDEX = JSON.parse($("pi-index").textContent || "{}");
	const RAW_LINES = ($("pi-entries").textContent || "").split("\n");
	const LINE0 = RAW_LINES[0] === "" ? 1 : 0;
	const N = INDEX.ids ? INDEX.ids.length : 0;
	const WINDOW = 80;
	const STEP = 100;

	// ------------------------------------------------------------ helpers
	const parsed = new Map();
	function entryAt(i) {
		let e = parsed.get(i);
		if (e === undefined) {
			try {
				e = JSON.parse(RAW_LINES[LINE0 + i]);
			} catch {
				e = { type: "unreadable", id: INDEX.ids[i] };
			}
			parsed.set(i, e);
		}
		return e;
	}
	const fmtTok = (n) => {
		if (typeof n !== "number") return "0";
		if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
		if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
		if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
		return String(n);
	};
	const fmtCost = (c) => (typeof c === "number" && c > 0 ? `$${c < 0.01 ? c.toFixed(4) : c.toFixed(2)}` : "");
	function fmtTime(ts) {
		const d = typeof ts === "number" ? new Date(ts) : new Date(String(ts));
		return Number.isNaN(d.getTime()) ? "" : d.toISOString().replace("T", " ").slice(0, 19);
	}
	// ------------------------------------------------------------ tree
	const parents = INDEX.parents || [];
	const kinds = INDEX.kinds || [];
	const firstChild = new Int32Array(N).fill(-1);
	const lastChild = new Int32Array(N).fill(-1);
	const nextSibling = new Int32Array(N).fill(-1);
	const childCount = new Int32Array(N);
	const roots = [];
	for (let i = 0; i < N; i++) {
		const p = parents[i];
		if (p < 0 || p >= N || p === i) {
			roots.push(i);
			continue;
		}
		if (lastChild[p] < 0) firstChild[p] = i;
		else nextSibling[lastChild[p]] = i;
		lastChild[p] = i;
		childCount[p]++;
	}
	const onActive = new Uint8Array(N);
	for (let i = INDEX.leaf; i >= 0 && i < N && !onActive[i]; i = parents[i]) onActive[i] = 1;
	// Depth-first rows; a child is indented only where its parent branches.
	const rowNode = new Int32Array(N);
	const rowIndent = new Uint16Array(N);
	const rowOf = new Int32Array(N);
	{
		let r = 0;
		const stack = [];
		for (let k = roots.length - 1; k >= 0; k--) stack.push(roots[k], 0);
		while (stack.length) {
			const indent = stack.pop();
			const node = stack.pop();
			rowNode[r] = node;
			rowIndent[r] = indent;
			rowOf[node] = r++;
			const kids = [];
			for (let c = firstChild[node]; c >= 0; c = nextSibling[c]) kids.push(c);
			const childIndent = kids.length > 1 ? Math.min(indent + 1, 60000) : indent;
			for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k], childIndent);
		}
	}
	const KIND_TAG = {
		user: "you",
		assistant: "ai",
		toolResult: "tool",
		bashExecution: "!",
		custom: "ext",
		compaction: "≡",
		branch_summary: "↩",
		model_change: "mdl",
		thinking_level_change: "thk",
		label: "lbl",
		session_info: "name",
		custom_message: "ext",
		context_edit: "edit",
		usage: "use",
	};
	const ROW_H = 22;
	const tree = $("tree");
	const spacer = $("tree-spacer");
	spacer.style.height = `${N * ROW_H}px`;
	let viewSet = new Uint8Array(N);
	let drawQueued = false;
	function drawTree() {
		drawQueued = false;
		const first = Math.max(0, Math.floor(tree.scrollTop / ROW_H) - 10);
		const last = Math.min(N, first + Math.ceil(tree.clientHeight / ROW_H) + 20);
		spacer.textContent = "";
		for (let r = first; r < last; r++) {
			const node = rowNode[r];
			const row = el("div", "row");
			row.style.top = `${r * ROW_H}px`;
			row.style.paddingLeft = `${6 + Math.min(rowIndent[r], 24) * 12}px`;
			row.dataset.node = String(node);
			if (onActive[node]) row.classList.add("on-active");
			if (viewSet[node]) row.classList.add("on-view");
			if (node === INDEX.leaf) row.classList.add("is-leaf");
			const kind = kinds[node];
			row.append(el("span", `kind k-${kind}`, KIND_TAG[kind] || kind));
			row.append(` ${INDEX.previews[node] || ""}`);
			const label = INDEX.labels ? INDEX.labels[String(node)] : undefined;
			if (label) row.append(el("span", "chip", label));
			if (childCount[node] > 1) row.title = `${childCount[node]} branches`;
			spacer.append(row);
		}
	}
	function queueDraw() {
		if (!drawQueued) {
			drawQueued = true;
			requestAnimationFrame(drawTree);
		}
	}
	tree.addEventListener("scroll", queueDraw);
	window.addEventListener("resize", queueDraw);
	tree.addEventListener("click", (ev) => {
		const row = ev.target instanceof Element ? ev.target.closest(".row") : null;
		if (row) showBranch(Number(row.dataset.node), true);
	});
	function scrollTreeTo(node) {
		const top = rowOf[node] * ROW_H;
		if (top < tree.scrollTop || top > tree.scrollTop + tree.clientHeight - ROW_H)
			tree.scrollTop = Math.max(0, top - tree.clientHeight / 3);
		queueDraw();
	}

	// ------------------------------------------------------------ entries
	const compactionKeep = new Map();
	const compactionFrom = new Map();

	const observer =
		typeof IntersectionObserver === "function"
			? new IntersectionObserver(
					(items) => {
						for (const it of items) if (it.isIntersecting && it.target.isConnected) it.target.click();
					},
					{ root: $("main"), rootMargin: "300px" },
				)
			: undefined;
	const messages = $("messages");
	let path = [];
	let posOf = new Map();
	let compacted = new Uint8Array(0);
	let start = 0;
	let end = 0;
	const rendered = new Map();
	const attached = new Set();

	function who(label, ts, extra) {
		const w = el("div", "who", label);
		if (extra) w.append(el("span", "when", extra));
		const t = fmtTime(ts);
		if (t) w.append(el("span", "when", t));
		return w;
	}
	function usageLine(m) {
		const u = m.usage;
		const parts = [];
		if (m.provider || m.model) parts.push(`${m.provider || "?"}/${m.model || "?"}`);
		if (u) {
			parts.push(`in ${fmtTok(u.input)}`, `out ${fmtTok(u.output)}`);
			if (u.cacheRead) parts.push(`cache read ${fmtTok(u.cacheRead)}`);
			if (u.cacheWrite) parts.push(`cache write ${fmtTok(u.cacheWrite)}`);
			const cost = fmtCost(u.cost?.total);
			if (cost) parts.push(cost);
		}
		if (m.stopReason && m.stopReason !== "stop" && m.stopReason !== "toolUse") parts.push(`stop: ${m.stopReason}`);
		return el("div", "usage", parts.join(" · "));
	}
	function contentBlocks(content, parent) {
		const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
		if (!Array.isArray(blocks)) return;
		for (const b of blocks) {
			if (!b) continue;
			if (b.type === "text") parent.append(markdown(b.text || ""));
			else if (b.type === "image") parent.append(imageEl(b));
		}
	}
	// The block `/skill:name args` sends: the skill's instructions, then the user's words.
	const SKILL_BLOCK = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]+))?$/;
	function renderUserContent(content, card) {
		const blocks = typeof content === "string" ? [{ type: "text", text: content }] : content;
		if (!Array.isArray(blocks)) return;
		const texts = blocks.filter((b) => b && b.type === "text");
		const skill = texts.length === 1 ? SKILL_BLOCK.exec(String(texts[0].text || "")) : null;
		if (!skill) {
			contentBlocks(blocks, card);
			return;
		}
		const d = el("details", "skill");
		d.append(el("summary", "", `[skill] ${skill[1]}`));
		d.append(el("div", "muted skill-path", skill[2]));
		d.append(markdown(skill[3]));
		card.append(d);
		for (const b of blocks) if (b && b.type === "image") card.append(imageEl(b));
		if (skill[4]?.trim()) card.append(markdown(skill[4].trim()));
	}
	/** Tool results that answer the calls of the assistant entry at path position p. */
	function resultsFor(p, calls) {
		const found = new Map();
		const wanted = new Set(calls.map((c) => c.id));
		for (let q = p + 1; q < path.length && q <= p + 200 && found.size < wanted.size; q++) {
			const k = kinds[path[q]];
			if (k !== "toolResult") {
				if (k === "user" || k === "assistant") break;
				continue;
			}
			const e = entryAt(path[q]);
			const id = e.message?.toolCallId;
			if (wanted.has(id)) found.set(id, q);
		}
		return found;
	}
	function renderAssistant(m, p, box) {
		const card = el("div", "card");
		const content = Array.isArray(m.content) ? m.content : [];
		const calls = content.filter((b) => b && b.type === "toolCall");
		const results = calls.length ? resultsFor(p, calls) : new Map();
		for (const b of content) {
			if (!b) continue;
			if (b.type === "text" && b.text) card.append(markdown(b.text));
			else if (b.type === "thinking") {
				const d = el("details");
				d.append(el("summary", "", b.redacted ? "Thinking (redacted)" : "Thinking"));
				d.append(el("div", "thinking", b.thinking || ""));
				card.append(d);
			} else if (b.type === "toolCall") {
				const q = results.get(b.id);
				const resultEntry = q === undefined ? undefined : entryAt(path[q]);
				card.append(toolCard(b.name, b.arguments, resultEntry));
				if (q !== undefined) {
					attached.add(q);
					const standalone = rendered.get(q);
					if (standalone) {
						standalone.remove();
						rendered.delete(q);
					}
				} else card.lastChild.append(el("div", "pending tool-body", "no result recorded on this branch"));
			} else if (b.type === "image") card.append(imageEl(b));
		}
		if (m.errorMessage) card.append(el("div", "errmsg", m.errorMessage));
		card.append(usageLine(m));
		box.append(card);
		if (m.stopReason === "error" || m.stopReason === "aborted") box.classList.add("error");
	}
	function jumpButton(text, node) {
		const b = el("button", "link", text);
		b.type = "button";
		b.addEventListener("click", () => showBranch(node, true));
		return b;
	}
	function renderEntry(p) {
		const node = path[p];
		const e = entryAt(node);
		const box = el("div", "entry");
		box.dataset.pos = String(p);
		box.dataset.id = String(e.id);
		if (compacted[p]) box.classList.add("compacted");
		const label = INDEX.labels ? INDEX.labels[String(node)] : undefined;
		const labelChip = label ? el("span", "chip", label) : null;
		if (e.type === "message") {
			const m = e.message || {};
			box.classList.add(m.role || "message");
			if (m.role === "user") {
				// Markdown, as the model saw it; a /skill: expansion shows as a collapsed block.
				box.append(who("You", m.timestamp || e.timestamp));
				const card = el("div", "card");
				renderUserContent(m.content, card);
				box.append(card);
			} else if (m.role === "assistant") {
				box.append(who("Assistant", m.timestamp || e.timestamp));
				renderAssistant(m, p, box);
			} else if (m.role === "toolResult") {
				box.append(who(`Tool result · ${m.toolName || "?"}`, m.timestamp || e.timestamp));
				box.append(toolCard(m.toolName || "tool", undefined, e));
			} else if (m.role === "bashExecution") {
				box.append(who("Shell (user)", m.timestamp || e.timestamp));
				const card = el("div", "tool");
				card.append(toolHead("bash", { command: m.command }));
				const body = el("div", "tool-body");
				longText(body, String(m.output || ""), (t) => el("pre", "wrap", t));
				if (m.exitCode !== undefined && m.exitCode !== 0) body.append(el("div", "errmsg", `exit code ${m.exitCode}`));
				if (m.cancelled) body.append(el("div", "errmsg", "cancelled"));
				card.append(body);
				box.append(card);
			} else if (m.role === "custom") {
				box.append(who(`Extension message · ${m.customType || ""}`, m.timestamp || e.timestamp));
				const card = el("div", "card");
				contentBlocks(m.content, card);
				box.append(card);
			} else {
				box.append(who(String(m.role || "message"), e.timestamp));
				box.append(codeBlock(JSON.stringify(m, null, 2), "json"));
			}
		} else if (e.type === "compaction") {
			const card = el("div", "card summary-card");
			card.append(who("Compaction", e.timestamp, e.fromHook ? "by an extension" : ""));
			card.append(markdown(e.summary || ""));
			const kp = compactionKeep.get(p);
			const info = el("div", "replaced");
			const from = compactionFrom.get(p) ?? 0;
			if (kp !== undefined && kp > from) {
				info.append(
					`Replaced ${fmtInt(kp - from)} earlier entries of this branch in the model's context (${fmtInt(e.tokensBefore)} tokens before). `,
				);
				info.append(jumpButton("Show the first replaced entry", path[from]));
			} else info.append(`Replaced the earlier context (${fmtInt(e.tokensBefore)} tokens before).`);
			card.append(info);
			if (e.usage) card.append(usageLine({ usage: e.usage }));
			box.append(card);
		} else if (e.type === "branch_summary") {
			const card = el("div", "card summary-card");
			card.append(who("Branch summary", e.timestamp));
			card.append(markdown(e.summary || ""));
			const info = el("div", "replaced");
			const fromIdx = nodeOfId(e.fromId);
			if (fromIdx >= 0) {
				info.append("Summarizes the abandoned branch ending at ");
				info.append(jumpButton(INDEX.previews[fromIdx] || e.fromId, fromIdx));
			} else info.append("Summarizes an abandoned branch.");
			card.append(info);
			box.append(card);
		} else if (e.type === "model_change") {
			const line = el("div", "meta-line", "Model changed to ");
			line.append(el("b", "", `${e.provider}/${e.modelId}`));
			box.append(line);
		} else if (e.type === "thinking_level_change") {
			const line = el("div", "meta-line", "Thinking level: ");
			line.append(el("b", "", e.thinkingLevel));
			box.append(line);
		} else if (e.type === "custom_message") {
			box.append(who(`Extension message · ${e.customType || ""}`, e.timestamp, e.display ? "" : "hidden in the app"));
			const card = el("div", "card");
			contentBlocks(e.content, card);
			box.append(card);
		} else if (e.type === "label") {
			box.append(
				el("div", "meta-line", e.label ? `Label "${e.label}" set on ${e.targetId}` : `Label cleared on ${e.targetId}`),
			);
		} else if (e.type === "session_info") {
			box.append(el("div", "meta-line", `Session named "${e.name || ""}"`));
		} else if (e.type === "context_edit") {
			box.append(
				el(
					"div",
					"meta-line",
					e.replacement === null
						? `Context edit: entry ${e.targetId} omitted from the model's context`
						: `Context edit: entry ${e.targetId} replaced in the model's context`,
				),
			);
		} else if (e.type === "usage") {
			const line = el("div", "meta-line", `Model usage (${e.kind || "other"}${e.note ? `: ${e.note}` : ""}) `);
			line.append(usageLine({ provider: e.provider, model: e.model, usage: e.usage }));
			box.append(line);
		} else if (e.type === "custom") {
			const d = el("details", "meta-line");
			d.append(el("summary", "", `Extension state · ${e.customType || ""}`));
			d.append(codeBlock(JSON.stringify(e.data ?? null, null, 2), "json"));
			box.append(d);
		} else {
			const d = el("details", "meta-line");
			d.append(el("summary", "", `${e.type || "unknown"} entry`));
			d.append(codeBlock(JSON.stringify(e, null, 2), "json"));
			box.append(d);
		}
		if (labelChip) box.firstChild ? box.firstChild.append(labelChip) : box.append(labelChip);
		rendered.set(p, box);
		return box;
	}
	// id -> node, built on first use (a branch summary or a compaction on the shown path), so
	// finding an entry by id is one lookup, not a scan of every id.
	let idToNode = null;
	function nodeOfId(id) {
		if (idToNode === null) {
			idToNode = new Map();
			for (let i = 0; i < N; i++) idToNode.set(INDEX.ids[i], i);
		}
		const n = idToNode.get(id);
		return n === undefined ? -1 : n;
	}
	function setPath(nodes) {
		path = nodes;
		posOf = new Map();
		for (let p = 0; p < path.length; p++) posOf.set(path[p], p);
		viewSet = new Uint8Array(N);
		for (const n of path) viewSet[n] = 1;
		compacted = new Uint8Array(path.length);
		compactionKeep.clear();
		compactionFrom.clear();
		let from = 0;
		for (let p = 0; p < path.length; p++) {
			if (kinds[path[p]] !== "compaction") continue;
			const keepPos = posOf.get(nodeOfId(entryAt(path[p]).firstKeptEntryId));
			const kp = keepPos !== undefined && keepPos < p ? keepPos : p;
			compactionKeep.set(p, kp);
			compactionFrom.set(p, from);
			for (let q = from; q < kp; q++) compacted[q] = 1;
			if (kp > from) from = kp;
		}
	}
	function clampStart(s) {
		while (s > 0 && kinds[path[s]] === "toolResult") s--;
		return s;
	}
	function moreButton(text, onClick) {
		const b = el("button", "more", text);
		b.type = "button";
		b.addEventListener("click", onClick);
		observer?.observe(b);
		return b;
	}
	let topButton = null;
	let bottomButton = null;
	function updateButtons() {
		if (topButton) {
			observer?.unobserve(topButton);
			topButton.remove();
			topButton = null;
		}
		if (bottomButton) {
			observer?.unobserve(bottomButton);
			bottomButton.remove();
			bottomButton = null;
		}
		if (start > 0) {
			topButton = moreButton(`Show earlier entries (${fmtInt(start)} more)`, () => extendUp());
			messages.prepend(topButton);
		}
		if (end < path.length) {
			bottomButton = moreButton(`Show later entries (${fmtInt(path.length - end)} more)`, () => extendDown());
			messages.append(bottomButton);
		}
	}
	function extendUp() {
		const main = $("main");
		const anchor = rendered.get(start);
		const before = anchor ? anchor.getBoundingClientRect().top : 0;
		const s = clampStart(Math.max(0, start - STEP));
		const frag = document.createDocumentFragment();
		const oldStart = start;
		start = s;
		for (let p = s; p < oldStart; p++) if (!attached.has(p)) frag.append(renderEntry(p));
		const first = rendered.get(oldStart) || messages.firstChild;
		messages.insertBefore(frag, first && first.parentNode === messages ? first : null);
		updateButtons();
		if (anchor) main.scrollTop += anchor.getBoundingClientRect().top - before;
	}
	function extendDown() {
		const e = Math.min(path.length, end + STEP);
		const frag = document.createDocumentFragment();
		for (let p = end; p < e; p++) if (!attached.has(p)) frag.append(renderEntry(p));
		end = e;
		if (bottomButton) messages.insertBefore(frag, bottomButton);
		else messages.append(frag);
		updateButtons();
	}
	function renderWindow(target) {
		messages.textContent = "";
		rendered.clear();
		attached.clear();
		topButton = bottomButton = null;
		const tp = target === undefined ? path.length - 1 : posOf.get(target);
		if (target === undefined || tp === undefined) {
			end = path.length;
			start = clampStart(Math.max(0, end - WINDOW));
		} else {
			start = clampStart(Math.max(0, tp - WINDOW / 2));
			end = Math.min(path.length, Math.max(tp + WINDOW / 2, start + WINDOW));
		}
		const frag = document.createDocumentFragment();
		for (let p = start; p < end; p++) if (!attached.has(p)) frag.append(renderEntry(p));
		messages.append(frag);
		updateButtons();
		const main = $("main");
		if (tp !== undefined && target !== undefined) {
			const node = rendered.get(tp) || (attached.has(tp) ? rendered.get(tp - 1) : undefined);
			if (node) {
				node.classList.add("target");
				node.scrollIntoView({ block: "center" });
			}
		} else main.scrollTop = main.scrollHeight;
	}
	/** Shows the branch through `node`: root → node, then on to a leaf (the active one if it passes here). */
	function showBranch(node, asTarget) {
		if (node < 0 || node >= N) return;
		const up = [];
		for (let i = node, guard = 0; i >= 0 && guard <= N; i = parents[i], guard++) up.push(i);
		up.reverse();
		let cur = node;
		for (let guard = 0; firstChild[cur] >= 0 && guard <= N; guard++) {
			let next = lastChild[cur];
			for (let c = firstChild[cur]; c >= 0; c = nextSibling[c]) if (onActive[c]) next = c;
			up.push(next);
			cur = next;
		}
		setPath(up);
		const leafHere = up[up.length - 1];
		const info = $("branch-info");
		info.textContent = `${onActive[leafHere] ? "Active branch" : "Branch"} · ${fmtInt(up.length)} entries`;
		let cost = 0;
		for (const n of up) cost += INDEX.costs ? INDEX.costs[n] || 0 : 0;
		if (cost > 0) info.textContent += ` · ${fmtCost(cost)}`;
		if (!onActive[leafHere] && INDEX.leaf >= 0) {
			info.append(" · ");
			info.append(jumpButton("back to the active branch", INDEX.leaf));
		}
		renderWindow(asTarget ? node : undefined);
		scrollTreeTo(node);
		queueDraw();
	}

	// ------------------------------------------------------------ page
	function applyTheme(theme) {
		document.documentElement.dataset.theme = theme;
	}
	const prefersDark = window.matchMedia?.("(prefers-color-scheme: dark)").matches;
	const hashTheme = /theme=(light|dark)/.exec(location.hash);
	applyTheme(hashTheme ? hashTheme[1] : prefersDark ? "dark" : "light");
	$("theme-toggle").addEventListener("click", () =>
		applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"),
	);
	$("show-active").addEventListener("click", () => {
		if (INDEX.leaf >= 0) showBranch(INDEX.leaf, false);
	});
	const header = META.header || {};
	const name = INDEX.name || "Pi session";
	document.title = INDEX.name ? `${INDEX.name} · Pi session` : "Pi session";
	$("session-name").textContent = name;
	$("session-meta").textContent = [header.id, header.cwd, fmtTime(header.timestamp)].filter(Boolean).join(" · ");
	const t = INDEX.totals || {};
	$("totals").textContent =
		`${fmtInt(N)} entries · in ${fmtTok(t.input)} · out ${fmtTok(t.output)}${t.cacheRead ? ` · cache ${fmtTok(t.cacheRead)}` : ""}${t.cost ? ` · ${fmtCost(t.cost)}` : ""}`;
	$("tree-count").textContent = `${fmtInt(N)} entries · ${fmtInt(roots.length)} root${roots.length === 1 ? "" : "s"}`;
	$("footer").textContent =
		`Exported by ${META.generator || "pi"}. Session text is shown as text; this page makes no network requests.`;
	if (N === 0) messages.append(el("div", "muted", "This session has no entries yet."));
	else showBranch(INDEX.leaf >= 0 ? INDEX.leaf : N - 1, false);
	drawTree();
})();
