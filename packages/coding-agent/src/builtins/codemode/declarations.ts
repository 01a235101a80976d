// TypeScript declarations of tools for scripts to read: JSON Schema (the
// tools' TypeBox parameters) rendered as a TypeScript object type, with the
// tool's description and prompt guidelines as its doc comment. Models write
// better calls against a signature than against raw JSON Schema, and it is
// shorter.

type Schema = Record<string, unknown>;

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A tool name as a JavaScript identifier: other characters become `_` (`mcp__dev-radius__x` → `mcp__dev_radius__x`). */
export function toIdentifier(name: string): string {
	const ident = name.replace(/[^A-Za-z0-9_$]/g, "_");
	return /^[0-9]/.test(ident) ? `_${ident}` : ident;
}

function doc(text: string, indent: string): string {
	const lines = text.trim().split("\n");
	if (lines.length === 1) return `${indent}/** ${lines[0].replace(/\*\//g, "* /")} */\n`;
	return `${indent}/**\n${lines.map((l) => `${indent} * ${l.replace(/\*\//g, "* /")}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

function literal(value: unknown): string {
	return JSON.stringify(value) ?? "unknown";
}

/** The TypeScript type of a JSON Schema (the subset TypeBox and MCP servers produce). */
export function schemaToType(schema: unknown, indent = "", depth = 0): string {
	if (!schema || typeof schema !== "object" || depth > 6) return "unknown";
	const s = schema as Schema;
	if ("const" in s) return literal(s.const);
	if (Array.isArray(s.enum)) return s.enum.map(literal).join(" | ") || "never";
	for (const key of ["anyOf", "oneOf"]) {
		const list = s[key];
		if (Array.isArray(list) && list.length > 0) {
			return list.map((item) => schemaToType(item, indent, depth + 1)).join(" | ");
		}
	}
	if (Array.isArray(s.allOf) && s.allOf.length > 0) {
		return s.allOf.map((item) => schemaToType(item, indent, depth + 1)).join(" & ");
	}
	const type = s.type;
	if (Array.isArray(type)) return type.map((t) => schemaToType({ ...s, type: t }, indent, depth + 1)).join(" | ");
	switch (type) {
		case "string":
			return "string";
		case "number":
		case "integer":
			return "number";
		case "boolean":
			return "boolean";
		case "null":
			return "null";
		case "array": {
			const item = schemaToType(s.items, indent, depth + 1);
			return /[|&]/.test(item) ? `(${item})[]` : `${item}[]`;
		}
		case "object":
			return objectType(s, indent, depth);
		default:
			return s.properties ? objectType(s, indent, depth) : "unknown";
	}
}

function objectType(s: Schema, indent: string, depth: number): string {
	const props = (s.properties ?? {}) as Record<string, unknown>;
	const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
	const keys = Object.keys(props);
	const extra = s.additionalProperties;
	if (keys.length === 0) {
		if (extra && typeof extra === "object") return `Record<string, ${schemaToType(extra, indent, depth + 1)}>`;
		return "Record<string, unknown>";
	}
	const inner = `${indent}\t`;
	let out = "{\n";
	for (const key of keys) {
		const prop = props[key] as Schema | undefined;
		const description = typeof prop?.description === "string" ? prop.description : undefined;
		if (description) out += doc(description, inner);
		const name = IDENT.test(key) ? key : JSON.stringify(key);
		out += `${inner}${name}${required.has(key) ? "" : "?"}: ${schemaToType(prop, inner, depth + 1)};\n`;
	}
	return `${out}${indent}}`;
}

export interface DeclarableTool {
	name: string;
	description: string;
	parameters?: unknown;
	promptGuidelines?: readonly string[];
}

/** `tools.<ident>(args: {...}): Promise<unknown>` with the description and guidelines as its doc comment. */
export function toolDeclaration(tool: DeclarableTool): string {
	const guidelines = (tool.promptGuidelines ?? []).map((g) => `- ${g}`).join("\n");
	const text = [tool.description.trim(), guidelines].filter(Boolean).join("\n\n");
	const params = schemaToType(tool.parameters ?? { type: "object" });
	return `${text ? doc(text, "") : ""}tools.${toIdentifier(tool.name)}(args: ${params}): Promise<unknown>;`;
}
