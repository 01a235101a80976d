import type { TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import type { TLocalizedValidationError } from "typebox/error";
import { isPlainValid } from "./validation-fast.js";

// Tool arguments are checked against the tool's JSON Schema before execution.
// A model's near misses are repaired only where the intent is unambiguous
// ("5" for a number, "true" for a boolean, a JSON string for an array/object,
// null for an optional field). TypeBox's own Convert is not used: it also
// turns "" and null into 0, null into "null" and truncates 1.5 to an integer,
// which would run a tool with values the model never meant.
//
// This module holds TypeBox's compiler (schema engine, value module, format
// regexes: ~200 KB of code). The loop reaches it only through
// `validateToolArguments` (validation-lazy.ts), for a call that
// `isPlainValid` cannot prove valid on its own.

export type ArgumentValidation = { ok: true; value: unknown } | { ok: false; message: string };

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: object): Validator {
	let validator = validators.get(schema);
	if (!validator) {
		validator = Compile(schema as TSchema);
		validators.set(schema, validator);
	}
	return validator;
}

/** Validates (and safely coerces) `args` against `schema`. Never throws; `args` is not mutated. */
export function validateArguments(toolName: string, schema: object, args: unknown): ArgumentValidation {
	if (isPlainValid(schema, args)) return { ok: true, value: args };
	let validator: Validator;
	try {
		validator = validatorFor(schema);
	} catch (error) {
		return { ok: false, message: `Tool "${toolName}" has an invalid parameter schema: ${errorText(error)}` };
	}
	if (validator.Check(args)) return { ok: true, value: args };
	const coerced = coerce(schema as JsonSchema, args);
	if (coerced !== args && validator.Check(coerced)) return { ok: true, value: coerced };
	return { ok: false, message: formatErrors(toolName, validator.Errors(coerced), args) };
}

function formatErrors(toolName: string, errors: TLocalizedValidationError[], args: unknown): string {
	const seen = new Set<string>();
	const lines: string[] = [];
	for (const error of errors) {
		const where = error.instancePath === "" ? "(root)" : error.instancePath.slice(1).replaceAll("/", ".");
		const line = `  - ${where}: ${error.message}`;
		if (!seen.has(line)) {
			seen.add(line);
			lines.push(line);
		}
	}
	if (lines.length === 0) lines.push("  - (root): does not match the parameter schema");
	let received: string;
	try {
		received = JSON.stringify(args, null, 2) ?? String(args);
	} catch {
		received = String(args);
	}
	return `Validation failed for tool "${toolName}":\n${lines.join("\n")}\n\nReceived arguments:\n${received}`;
}

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

// ---------------------------------------------------------------------------
// Safe coercion over plain JSON Schema (TypeBox schemas are JSON Schema).

interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	required?: string[];
	items?: JsonSchema;
	anyOf?: JsonSchema[];
	oneOf?: JsonSchema[];
	const?: unknown;
	enum?: unknown[];
}

const NUMBER_TEXT = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** Returns a coerced copy where something changed, else the same value. */
function coerce(schema: JsonSchema, value: unknown): unknown {
	if (typeof schema !== "object" || schema === null) return value;
	const variants = schema.anyOf ?? schema.oneOf;
	if (variants) return coerceVariants(variants, value);
	const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
	if (types.length === 0) return value;
	if (types.some((type) => matchesType(type, value))) return coerceInside(schema, types, value);
	for (const type of types) {
		const converted = convertPrimitive(type, value);
		if (converted !== NO_CONVERSION) return coerceInside(schema, types, converted);
	}
	return value;
}

function coerceVariants(variants: JsonSchema[], value: unknown): unknown {
	for (const variant of variants) {
		try {
			if (validatorFor(variant).Check(value)) return value;
		} catch {
			// An uncompilable branch cannot match; try the next.
		}
	}
	for (const variant of variants) {
		const converted = coerce(variant, value);
		if (converted === value) continue;
		try {
			if (validatorFor(variant).Check(converted)) return converted;
		} catch {
			// As above.
		}
	}
	return value;
}

function coerceInside(schema: JsonSchema, types: string[], value: unknown): unknown {
	if (types.includes("object") && isRecord(value) && schema.properties) {
		let copy: Record<string, unknown> | undefined;
		const required = new Set(schema.required ?? []);
		for (const [key, propertySchema] of Object.entries(schema.properties)) {
			if (!(key in value)) continue;
			const current = value[key];
			if (current === null && !required.has(key) && !allowsNull(propertySchema)) {
				copy ??= { ...value };
				delete copy[key];
				continue;
			}
			const next = coerce(propertySchema, current);
			if (next !== current) {
				copy ??= { ...value };
				copy[key] = next;
			}
		}
		return copy ?? value;
	}
	if (types.includes("array") && Array.isArray(value) && schema.items && !Array.isArray(schema.items)) {
		const items = schema.items;
		let copy: unknown[] | undefined;
		value.forEach((item, index) => {
			const next = coerce(items, item);
			if (next !== item) {
				copy ??= [...value];
				copy[index] = next;
			}
		});
		return copy ?? value;
	}
	return value;
}

const NO_CONVERSION = Symbol("no conversion");

function convertPrimitive(type: string, value: unknown): unknown {
	switch (type) {
		case "number":
			return typeof value === "string" && NUMBER_TEXT.test(value) ? Number(value) : NO_CONVERSION;
		case "integer": {
			if (typeof value !== "string" || !NUMBER_TEXT.test(value)) return NO_CONVERSION;
			const number = Number(value);
			return Number.isInteger(number) ? number : NO_CONVERSION;
		}
		case "boolean":
			if (typeof value !== "string") return NO_CONVERSION;
			if (value.trim().toLowerCase() === "true") return true;
			if (value.trim().toLowerCase() === "false") return false;
			return NO_CONVERSION;
		case "string":
			return typeof value === "number" || typeof value === "boolean" ? String(value) : NO_CONVERSION;
		case "array":
		case "object": {
			if (typeof value !== "string") return NO_CONVERSION;
			try {
				const parsed: unknown = JSON.parse(value);
				return matchesType(type, parsed) ? parsed : NO_CONVERSION;
			} catch {
				return NO_CONVERSION;
			}
		}
		default:
			return NO_CONVERSION;
	}
}

function matchesType(type: string, value: unknown): boolean {
	switch (type) {
		case "null":
			return value === null;
		case "array":
			return Array.isArray(value);
		case "object":
			return isRecord(value);
		case "integer":
			return Number.isInteger(value);
		default:
			return typeof value === type;
	}
}

function allowsNull(schema: JsonSchema): boolean {
	if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
	return (schema.anyOf ?? schema.oneOf ?? []).some(allowsNull);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
