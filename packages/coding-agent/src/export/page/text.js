// Pi session export, page script part 1 of 3: text rendering (markdown,
// code highlighting, diffs, inline images). The parts are concatenated into
// one inline script (see ../assets.ts). The DOM is built with createElement
// and textContent only: session text is never parsed as HTML.
globalThis.piText = (() => {
	const MAX_TEXT = 20000;
	function el(tag, cls, text) {
		const e = document.createElement(tag);
		if (cls) e.className = cls;
		if (text !== undefined && text !== null) e.textContent = String(text);
		return e;
	}
	const fmtInt = (n) => (typeof n === "number" ? n.toLocaleString("en-US") : "0");
	const SAFE_IMAGE = /^image\/(png|jpeg|gif|webp)$/;
	function imageEl(block) {
		const mime = typeof block.mimeType === "string" ? block.mimeType : "";
		const data = typeof block.data === "string" ? block.data : "";
		if (!SAFE_IMAGE.test(mime) || !/^[A-Za-z0-9+/=\s]*$/.test(data))
			return el("div", "muted", `[image: ${mime || "unknown type"}]`);
		const img = el("img", "inline");
		img.alt = "image";
		img.src = `data:${mime};base64,${data.replace(/\s+/g, "")}`;
		return img;
	}
	/** Long text shown up to MAX_TEXT characters, with a button for the rest. */
	function longText(parent, text, make) {
		if (text.length <= MAX_TEXT) {
			parent.append(make(text));
			return;
		}
		const node = make(text.slice(0, MAX_TEXT));
		parent.append(node);
		const more = el("button", "more", `Show all (${fmtInt(text.length)} characters)`);
		more.type = "button";
		more.addEventListener("click", () => {
			node.replaceWith(make(text));
			more.remove();
		});
		parent.append(more);
	}

	// ------------------------------------------------------------ highlighting
	const JS_KW =
		"break case catch class const continue debugger default delete do else export extends false finally for from function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while with yield async await interface type enum implements private public protected readonly as any unknown never";
	const PY_KW =
		"and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self";
	const SH_KW =
		"if then else elif fi for while until do done case esac function in return exit export local readonly echo cd set unset";
	const C_KW =
		"auto bool break case catch char class const continue default defer delete do double else enum extern false fn float for func go goto if impl import int interface let long loop map match mod mut namespace new nil null package pub return self short signed sizeof static struct super switch template this throw trait true try type typedef union unsigned use using var void volatile where while";
	const SQL_KW =
		"select from where insert into update delete create table drop alter join left right inner outer on group by order having limit and or not null values set as distinct union";
	const LANGS = {
		js: { kw: JS_KW, line: "//", block: true, quotes: "'\"`" },
		py: { kw: PY_KW, line: "#", block: false, quotes: "'\"" },
		sh: { kw: SH_KW, line: "#", block: false, quotes: "'\"" },
		c: { kw: C_KW, line: "//", block: true, quotes: "'\"" },
		css: { kw: "", line: "", block: true, quotes: "'\"" },
		json: { kw: "true false null", line: "", block: false, quotes: '"' },
		yaml: { kw: "true false null yes no", line: "#", block: false, quotes: "'\"" },
		sql: { kw: SQL_KW, line: "--", block: true, quotes: "'\"", ci: true },
	};
	const ALIASES = {
		javascript: "js",
		ts: "js",
		typescript: "js",
		tsx: "js",
		jsx: "js",
		mjs: "js",
		cjs: "js",
		mts: "js",
		cts: "js",
		python: "py",
		bash: "sh",
		shell: "sh",
		zsh: "sh",
		console: "sh",
		fish: "sh",
		go: "c",
		rust: "c",
		rs: "c",
		java: "c",
		kotlin: "c",
		kt: "c",
		swift: "c",
		cpp: "c",
		cc: "c",
		h: "c",
		hpp: "c",
		cs: "c",
		csharp: "c",
		scala: "c",
		dart: "c",
		php: "c",
		scss: "css",
		less: "css",
		yml: "yaml",
		toml: "yaml",
		ini: "yaml",
		jsonc: "json",
		json5: "json",
	};
	const compiled = new Map();
	function langSpec(lang) {
		const key = String(lang || "").toLowerCase();
		const name = LANGS[key] ? key : ALIASES[key];
		if (!name) return undefined;
		let spec = compiled.get(name);
		if (!spec) {
			const l = LANGS[name];
			const parts = [];
			if (l.block) parts.push("\\/\\*[\\s\\S]*?(?:\\*\\/|$)");
			if (l.line) parts.push(`${l.line.replace(/[/]/g, "\\/")}[^\\n]*`);
			const q = l.quotes.split("").map((c) => `${c}(?:\\\\[\\s\\S]|(?!${c})[^\\\\${c === "`" ? "" : "\\n"}])*${c}?`);
			const com = parts.length ? `(${parts.join("|")})` : "(?!)";
			spec = {
				re: new RegExp(
					`${com}|(${q.join("|")})|(\\b\\d[\\d_]*(?:\\.\\d+)?(?:e[+-]?\\d+)?\\b|\\b0x[\\da-f]+\\b)|([A-Za-z_$][\\w$]*)(\\s*\\()?`,
					"gi",
				),
				kw: new Set(l.kw.split(" ").filter(Boolean)),
				ci: Boolean(l.ci),
			};
			compiled.set(name, spec);
		}
		return spec;
	}
	function highlight(code, lang) {
		const frag = document.createDocumentFragment();
		const spec = code.length < 200000 ? langSpec(lang) : undefined;
		if (!spec) {
			frag.append(code);
			return frag;
		}
		let last = 0;
		spec.re.lastIndex = 0;
		for (let m = spec.re.exec(code); m; m = spec.re.exec(code)) {
			if (m[0] === "") {
				spec.re.lastIndex++;
				continue;
			}
			let cls = "";
			let text = m[0];
			if (m[1] !== undefined) cls = "tok-com";
			else if (m[2] !== undefined) cls = "tok-str";
			else if (m[3] !== undefined) cls = "tok-num";
			else if (m[4] !== undefined) {
				text = m[4];
				const word = spec.ci ? m[4].toLowerCase() : m[4];
				if (spec.kw.has(word)) cls = "tok-kw";
				else if (m[5] !== undefined) cls = "tok-fn";
				spec.re.lastIndex = m.index + m[4].length;
			}
			if (!cls) continue;
			if (m.index > last) frag.append(code.slice(last, m.index));
			frag.append(el("span", cls, text));
			last = m.index + text.length;
		}
		if (last < code.length) frag.append(code.slice(last));
		return frag;
	}
	function codeBlock(code, lang) {
		const pre = el("pre");
		const c = el("code");
		if (lang) c.dataset.lang = String(lang);
		c.append(highlight(code, lang));
		pre.append(c);
		return pre;
	}
	function diffBlock(diff) {
		const pre = el("pre", "diff");
		for (const line of String(diff).split("\n")) {
			const cls =
				line.startsWith("+") && !line.startsWith("+++")
					? "add"
					: line.startsWith("-") && !line.startsWith("---")
						? "del"
						: line.startsWith("@@")
							? "hunk"
							: "ctx";
			pre.append(el("span", cls, line || " "));
		}
		return pre;
	}
	const EXT_LANG = {
		md: "",
		txt: "",
		py: "py",
		sh: "sh",
		bash: "sh",
		json: "json",
		css: "css",
		yml: "yaml",
		yaml: "yaml",
		toml: "yaml",
		sql: "sql",
	};
	function langOfPath(path) {
		const m = /\.([A-Za-z0-9]+)$/.exec(String(path || ""));
		if (!m) return "";
		const ext = m[1].toLowerCase();
		return ext in EXT_LANG ? EXT_LANG[ext] : ext;
	}

	// ------------------------------------------------------------ markdown
	const SAFE_URL = /^(https?:|mailto:|#)/i;
	function link(text, url) {
		if (!SAFE_URL.test(url)) return document.createTextNode(text === url ? text : `${text} (${url})`);
		const a = el("a", "", text);
		a.href = url;
		a.rel = "noopener noreferrer nofollow";
		a.target = "_blank";
		return a;
	}
	function inline(text, parent) {
		let buf = "";
		const flush = () => {
			if (buf) parent.append(buf);
			buf = "";
		};
		let i = 0;
		while (i < text.length) {
			const c = text[i];
			const rest = text.slice(i);
			let m;
			if (c === "\\" && i + 1 < text.length && /[\\`*_{}[\]()#+\-.!~|<>]/.test(text[i + 1])) {
				buf += text[i + 1];
				i += 2;
				continue;
			}
			if (c === "`" && (m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
				flush();
				parent.append(el("code", "", m[2].replace(/^ (.*) $/, "$1")));
				i += m[0].length;
				continue;
			}
			if (c === "!" && (m = /^!\[([^\]]*)\]\(([^)\s]*)[^)]*\)/.exec(rest))) {
				// Remote images would be a network request: shown as a link instead.
				flush();
				parent.append(link(`[image: ${m[1] || m[2]}]`, m[2]));
				i += m[0].length;
				continue;
			}
			if (c === "[" && (m = /^\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(rest))) {
				flush();
				parent.append(link(m[1], m[2]));
				i += m[0].length;
				continue;
			}
			if (c === "h" && (m = /^https?:\/\/[^\s<>()"']+[^\s<>()"'.,;:!?]/.exec(rest)) && !/\w$/.test(buf)) {
				flush();
				parent.append(link(m[0], m[0]));
				i += m[0].length;
				continue;
			}
			// "_" never opens or closes inside a word (snake_case, window.__name), as in CommonMark.
			if (
				(c === "*" || (c === "_" && !/\w$/.test(buf))) &&
				(m = c === "*" ? /^\*\*(?=\S)([\s\S]*?\S)\*\*/.exec(rest) : /^__(?=\S)([\s\S]*?\S)__(?!\w)/.exec(rest))
			) {
				flush();
				const b = el("strong");
				inline(m[1], b);
				parent.append(b);
				i += m[0].length;
				continue;
			}
			if (c === "~" && (m = /^~~(?=\S)([\s\S]*?\S)~~/.exec(rest))) {
				flush();
				const s = el("del");
				inline(m[1], s);
				parent.append(s);
				i += m[0].length;
				continue;
			}
			if ((c === "*" || (c === "_" && !/\w$/.test(buf))) && (m = /^([*_])(?=\S)([\s\S]*?\S)\1(?!\w)/.exec(rest))) {
				flush();
				const em = el("em");
				inline(m[2], em);
				parent.append(em);
				i += m[0].length;
				continue;
			}
			buf += c;
			i++;
		}
		flush();
	}
	const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
	const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
	const HR = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
	const QUOTE = /^ {0,3}> ?/;
	const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])\s+/;
	const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
	function isBlockStart(line, next) {
		return (
			FENCE.test(line) ||
			HEADING.test(line) ||
			HR.test(line) ||
			QUOTE.test(line) ||
			ITEM.test(line) ||
			(line.includes("|") && next !== undefined && TABLE_SEP.test(next))
		);
	}
	function cells(line) {
		return line
			.trim()
			.replace(/^\|/, "")
			.replace(/\|$/, "")
			.split("|")
			.map((s) => s.trim());
	}
	function blocks(lines, parent, depth) {
		let i = 0;
		while (i < lines.length) {
			const line = lines[i];
			if (!line.trim()) {
				i++;
				continue;
			}
			let m = FENCE.exec(line);
			if (m) {
				const fence = m[1];
				const body = [];
				i++;
				while (
					i < lines.length &&
					!new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}\\s*$`).test(lines[i])
				)
					body.push(lines[i++]);
				i++;
				parent.append(codeBlock(body.join("\n"), m[2]));
				continue;
			}
			if ((m = HEADING.exec(line))) {
				const h = el(`h${m[1].length}`);
				inline(m[2], h);
				parent.append(h);
				i++;
				continue;
			}
			if (HR.test(line)) {
				parent.append(el("hr"));
				i++;
				continue;
			}
			if (QUOTE.test(line) && depth < 8) {
				const body = [];
				while (i < lines.length && lines[i].trim() && (QUOTE.test(lines[i]) || !isBlockStart(lines[i])))
					body.push(lines[i++].replace(QUOTE, ""));
				const q = el("blockquote");
				blocks(body, q, depth + 1);
				parent.append(q);
				continue;
			}
			if ((m = ITEM.exec(line)) && depth < 8) {
				const ordered = /\d/.test(m[2]);
				const list = el(ordered ? "ol" : "ul");
				if (ordered) {
					const start = parseInt(m[2], 10);
					if (start !== 1) list.start = start;
				}
				while (i < lines.length) {
					const im = ITEM.exec(lines[i]);
					if (!im || /\d/.test(im[2]) !== ordered) break;
					const indent = im[0].length;
					const body = [lines[i].slice(indent)];
					i++;
					while (i < lines.length) {
						const l = lines[i];
						if (!l.trim()) {
							const nx = lines[i + 1];
							if (nx !== undefined && /^\s+/.test(nx) && nx.trim()) {
								body.push("");
								i++;
								continue;
							}
							break;
						}
						if (ITEM.exec(l) && (ITEM.exec(l)[1].length < indent || !/^\s/.test(l))) break;
						body.push(l.replace(new RegExp(`^ {0,${indent}}`), ""));
						i++;
					}
					const li = el("li");
					if (body.length === 1) inline(body[0], li);
					else blocks(body, li, depth + 1);
					list.append(li);
					while (i < lines.length && !lines[i].trim() && lines[i + 1] !== undefined && ITEM.test(lines[i + 1])) i++;
				}
				parent.append(list);
				continue;
			}
			if (line.includes("|") && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1])) {
				const table = el("table");
				const head = el("tr");
				for (const c of cells(line)) {
					const th = el("th");
					inline(c, th);
					head.append(th);
				}
				const thead = el("thead");
				thead.append(head);
				table.append(thead);
				const tbody = el("tbody");
				i += 2;
				while (i < lines.length && lines[i].includes("|") && lines[i].trim()) {
					const tr = el("tr");
					for (const c of cells(lines[i])) {
						const td = el("td");
						inline(c, td);
						tr.append(td);
					}
					tbody.append(tr);
					i++;
				}
				table.append(tbody);
				parent.append(table);
				continue;
			}
			const para = [line];
			i++;
			while (i < lines.length && lines[i].trim() && !isBlockStart(lines[i], lines[i + 1])) para.push(lines[i++]);
			const p = el("p");
			inline(para.join("\n"), p);
			parent.append(p);
		}
	}
	function markdown(text) {
		const root = el("div", "md");
		const src = String(text);
		if (src.length > 200000) {
			longText(root, src, (t) => el("pre", "wrap", t));
			return root;
		}
		blocks(src.replace(/\r\n?/g, "\n").split("\n"), root, 0);
		return root;
	}

	return { el, fmtInt, imageEl, longText, highlight, codeBlock, diffBlock, langOfPath, markdown, MAX_TEXT };
})();
