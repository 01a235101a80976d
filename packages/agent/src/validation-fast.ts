// A one-sided check of tool arguments: true only when `value` certainly
// satisfies `schema`. It knows the few JSON Schema keywords tool schemas are
// made of (types, properties, required, items, enum/const, anyOf, numeric and
// item bounds) with TypeBox's meaning of each (a number is finite; an optional
// property may hold `undefined`; a key is present when `key in value`).
// Anything else — another keyword, a refinement (`~refine`), a non-primitive
// enum member, a value it would have to think about — answers false, and the
// caller asks TypeBox, which decides and explains. So a false here is never a
// verdict, and a true is never wider than TypeBox's.

/** Keywords that never affect validity (annotations and TypeBox's type markers). */
const ANNOTATIONS = new Set([
	"title",
	"description",
	"default",
	"examples",
	"deprecated",
	"readOnly",
	"writeOnly",
	"$comment",
	"~kind",
	"~optional",
	"~readonly",
]);

type Schema = Record<string, unknown>;

export function isPlainValid(schema: unknown, value: unknown): boolean {
	if (schema === true) return true;
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return false;
	const s = schema as Schema;
	// Own names, not only enumerable ones: TypeBox keeps its markers (and refinements) non-enumerable.
	for (const key of Object.getOwnPropertyNames(s)) {
		if (ANNOTATIONS.has(key)) continue;
		if (!keywordHolds(key, s, value)) return false;
	}
	return true;
}

function keywordHolds(key: string, s: Schema, value: unknown): boolean {
	const keyword = s[key];
	switch (key) {
		case "type":
			return typeof keyword === "string"
				? isType(keyword, value)
				: Array.isArray(keyword) && keyword.some((type) => typeof type === "string" && isType(type, value));
		case "properties":
			return isObject(value) && propertiesHold(s, keyword, value);
		case "required":
			return (
				isObject(value) &&
				Array.isArray(keyword) &&
				keyword.every((name) => typeof name === "string" && Object.hasOwn(value, name))
			);
		case "additionalProperties":
			return isObject(value) && additionalHold(s, keyword, value);
		case "items":
			return Array.isArray(value) && isSchemaObject(keyword) && value.every((item) => isPlainValid(keyword, item));
		case "enum":
			return Array.isArray(keyword) && keyword.some((member) => isPrimitive(member) && member === value);
		case "const":
			return isPrimitive(keyword) && keyword === value;
		case "anyOf":
			return Array.isArray(keyword) && keyword.some((variant) => isPlainValid(variant, value));
		case "minimum":
			return typeof keyword === "number" && typeof value === "number" && value >= keyword;
		case "maximum":
			return typeof keyword === "number" && typeof value === "number" && value <= keyword;
		case "exclusiveMinimum":
			return typeof keyword === "number" && typeof value === "number" && value > keyword;
		case "exclusiveMaximum":
			return typeof keyword === "number" && typeof value === "number" && value < keyword;
		case "minItems":
			return typeof keyword === "number" && Array.isArray(value) && value.length >= keyword;
		case "maxItems":
			return typeof keyword === "number" && Array.isArray(value) && value.length <= keyword;
		default:
			return false;
	}
}

function propertiesHold(s: Schema, properties: unknown, value: Record<string, unknown>): boolean {
	if (!isSchemaObject(properties)) return false;
	const required = Array.isArray(s.required) ? (s.required as unknown[]) : [];
	for (const name of Object.keys(properties)) {
		if (!(name in value)) continue;
		// Present only through the prototype ("toString"): TypeBox would check that inherited value.
		if (!Object.hasOwn(value, name)) return false;
		const current = value[name];
		// TypeBox's default (inexact optional): an optional property may be present as undefined.
		if (current === undefined && !required.includes(name)) continue;
		if (!isPlainValid(properties[name], current)) return false;
	}
	return true;
}

function additionalHold(s: Schema, additional: unknown, value: Record<string, unknown>): boolean {
	if (additional === true) return true;
	if (additional !== false && !isSchemaObject(additional)) return false;
	if (s.patternProperties !== undefined) return false;
	const properties = isSchemaObject(s.properties) ? s.properties : {};
	for (const name of Object.getOwnPropertyNames(value)) {
		if (Object.hasOwn(properties, name)) continue;
		if (additional === false || !isPlainValid(additional, value[name])) return false;
	}
	return true;
}

function isType(type: string, value: unknown): boolean {
	switch (type) {
		case "object":
			return isObject(value);
		case "array":
			return Array.isArray(value);
		case "string":
			return typeof value === "string";
		case "boolean":
			return typeof value === "boolean";
		case "number":
			return Number.isFinite(value);
		case "integer":
			return Number.isInteger(value);
		case "null":
			return value === null;
		default:
			return false;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSchemaObject(value: unknown): value is Schema {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
	return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}
