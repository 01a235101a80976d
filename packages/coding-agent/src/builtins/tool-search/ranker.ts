// Ranks tools for a free-text query: BM25 over each tool's description text
// (description, parameter names and their descriptions), with the tool name
// and its namespace as separate fields. Shared by `tool_search` and codemode's
// `searchTools()`, so both find the same tools for the same words.
//
// Order of a result list:
//   1. a query that is exactly a tool's name puts that tool first;
//   2. tools matching more distinct query terms (in any field) come before
//      tools matching fewer, whatever their scores;
//   3. then by score: a term in the name outweighs any number of mentions in
//      the description; the description alone is length-normalised.
// Ties keep the documents' order.
import type { TSchema } from "typebox";

export const DEFAULT_SEARCH_LIMIT = 8;

export interface SearchNamespace {
	name: string;
	aliases?: readonly string[];
	description?: string;
	instructions?: string;
}

export interface SearchableTool {
	name: string;
	description: string;
	parameters?: TSchema | Record<string, unknown>;
	namespace?: SearchNamespace;
}

export interface SearchMatch {
	name: string;
	score: number;
}

const STOP_WORDS = new Set(
	"a an and are as at be by can do does for from how i in into is it its me my of on or that the this to use using what when where which with you your".split(
		" ",
	),
);

/** Singular form for plural English words (crude on purpose: "files" → "file", "queries" → "query"). */
function stem(word: string): string {
	if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
	if (word.length > 3 && word.endsWith("es") && /(sh|ch|x|ss)es$/.test(word)) return word.slice(0, -2);
	if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us")) return word.slice(0, -1);
	return word;
}

/** Words of a text: identifier parts (`getUserName`, `mcp__dev-radius__search`) split, lower-cased, stop words dropped. */
export function tokenize(text: string): string[] {
	const spaced = text
		.replace(/([a-z0-9])([A-Z])/g, "$1 $2")
		.replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
		.toLowerCase();
	const out: string[] = [];
	for (const word of spaced.split(/[^\p{L}\p{N}]+/u)) {
		if (word === "" || STOP_WORDS.has(word)) continue;
		out.push(stem(word));
	}
	return out;
}

/** Parameter names and descriptions, recursively (bounded), as search text. */
function schemaText(schema: unknown, depth = 0, out: string[] = []): string[] {
	if (!schema || typeof schema !== "object" || depth > 4) return out;
	const s = schema as Record<string, unknown>;
	if (typeof s.description === "string" && depth > 0) out.push(s.description);
	const props = s.properties;
	if (props && typeof props === "object") {
		for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
			out.push(key);
			schemaText(value, depth + 1, out);
		}
	}
	if (s.items) schemaText(s.items, depth + 1, out);
	for (const key of ["anyOf", "oneOf", "allOf"]) {
		const list = s[key];
		if (Array.isArray(list)) for (const item of list) schemaText(item, depth + 1, out);
	}
	return out;
}

/** The last `__` part of a name (`mcp__server__tool` → `tool`), the tool's own name within its namespace. */
function localName(name: string): string {
	const i = name.lastIndexOf("__");
	return i >= 0 ? name.slice(i + 2) : name;
}

interface Doc {
	name: string;
	nameTerms: Set<string>;
	localTerms: string[];
	body: Map<string, number>;
	bodyLength: number;
	namespaceTerms: Set<string>;
}

function toDoc(tool: SearchableTool): Doc {
	const body = new Map<string, number>();
	const words = tokenize([tool.description, ...schemaText(tool.parameters)].join(" "));
	for (const w of words) body.set(w, (body.get(w) ?? 0) + 1);
	const ns = tool.namespace;
	return {
		name: tool.name,
		nameTerms: new Set(tokenize(tool.name)),
		localTerms: tokenize(localName(tool.name)),
		body,
		bodyLength: words.length,
		namespaceTerms: new Set(
			ns ? tokenize([ns.name, ...(ns.aliases ?? []), ns.description ?? "", ns.instructions ?? ""].join(" ")) : [],
		),
	};
}

export function rankTools(
	query: string,
	tools: readonly SearchableTool[],
	limit = DEFAULT_SEARCH_LIMIT,
	options: { k1?: number; b?: number } = {},
): SearchMatch[] {
	const k1 = options.k1 ?? 1.2;
	const b = options.b ?? 0.75;
	const terms = [...new Set(tokenize(query))];
	const trimmed = query.trim();
	if (terms.length === 0 && trimmed === "") return [];
	const docs = tools.map(toDoc);
	const n = docs.length;
	const avgLength = docs.reduce((sum, d) => sum + d.bodyLength, 0) / Math.max(1, n);
	const df = new Map<string, number>();
	for (const t of terms) df.set(t, docs.filter((d) => d.body.has(t)).length);
	// One name hit is worth more than the best possible description score of all terms together.
	const nameWeight = terms.length * (k1 + 1) * Math.log(1 + n) + 1;

	const scored = docs.map((d, index) => {
		let score = 0;
		let covered = 0;
		for (const t of terms) {
			const inName = d.nameTerms.has(t);
			const tf = d.body.get(t) ?? 0;
			const inNamespace = d.namespaceTerms.has(t);
			if (inName || tf > 0 || inNamespace) covered++;
			if (inName) score += nameWeight;
			if (tf > 0) {
				const idf = Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
				score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.bodyLength) / Math.max(1, avgLength)));
			}
			if (inNamespace) score += 0.5;
		}
		// The whole local name in the query ("peekaboo app" for mcp__peekaboo__app): worth one more match of every term.
		if (d.localTerms.length > 0 && d.localTerms.every((t) => terms.includes(t))) {
			covered += 0.5;
			score += nameWeight;
		}
		const exact = trimmed === d.name || trimmed === localName(d.name);
		return { name: d.name, score, covered, exact, index };
	});
	return scored
		.filter((s) => s.exact || s.covered > 0)
		.sort((x, y) => {
			if (x.exact !== y.exact) return x.exact ? -1 : 1;
			if (x.covered !== y.covered) return y.covered - x.covered;
			if (x.score !== y.score) return y.score - x.score;
			return x.index - y.index;
		})
		.slice(0, Math.max(0, limit))
		.map(({ name, score }) => ({ name, score }));
}

/** Whether `name` refers to namespace `ns` (its name, an alias, or either as a script identifier). */
export function matchesNamespace(ns: SearchNamespace | undefined, name: string): boolean {
	if (!ns) return false;
	const norm = (s: string) => s.replace(/[^A-Za-z0-9_]/g, "_").toLowerCase();
	const wanted = norm(name);
	return [ns.name, ...(ns.aliases ?? [])].some((n) => norm(n) === wanted || norm(n) === norm(`mcp__${name}`));
}
