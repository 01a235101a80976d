// The JavaScript that runs inside the QuickJS VM before a script: it builds
// the script's globals (tools, text, image, console, store/load, exit,
// ALL_TOOLS, searchTools, describeTool, describeNamespace) over the host
// functions the worker put in `globalThis.__pi`, then removes `__pi` so the
// script only reaches the host through these globals. The expression's value
// is the function that runs the script and adds its return value to the output.
//
// Nothing here is trusted: the script can replace or break any of these
// globals. Every limit (output size, call counts, store sizes, argument size)
// is enforced by the worker's host functions, not by this code.

export const PRELUDE = `(function (host) {
"use strict";
delete globalThis.__pi;
const stringify = JSON.stringify;
const parse = JSON.parse;
const toolList = parse(host.toolsJson);

function describeError(e) {
	if (e && typeof e === "object" && typeof e.message === "string") {
		return (typeof e.name === "string" && e.name ? e.name + ": " : "") + e.message;
	}
	return String(e);
}

// Strings as they are, other values as JSON (what text(), return and console print).
function asText(value) {
	if (typeof value === "string") return value;
	if (value === undefined) return "undefined";
	if (value instanceof Error) return describeError(value);
	try {
		const json = stringify(value, null, 2);
		return json === undefined ? String(value) : json;
	} catch (e) {
		return String(value);
	}
}

async function callHost(op, name, args) {
	let json;
	try {
		json = stringify(args === undefined ? {} : args);
	} catch (e) {
		throw new TypeError("The arguments of " + name + " cannot be sent as JSON: " + describeError(e));
	}
	const out = await host.call(op, name, json === undefined ? "{}" : json);
	return out === "" ? undefined : parse(out);
}

const toolTable = Object.create(null);
for (const t of toolList) {
	const fn = (args) => callHost("tool", t.name, args);
	Object.defineProperty(toolTable, t.ident, { value: fn, enumerable: true });
}
const tools = new Proxy(toolTable, {
	get(target, key) {
		if (typeof key !== "string" || key in target || key === "then") return target[key];
		return () => Promise.reject(new TypeError("There is no tool " + key + "; find tools with searchTools() or ALL_TOOLS"));
	},
});

const ALL_TOOLS = Object.freeze(toolList.map((t) => Object.freeze({ name: t.name, description: t.description })));

function text(value) {
	host.text(asText(value));
}

function image(value) {
	let data;
	let mimeType;
	if (typeof value === "string") {
		const m = /^data:([^;,]+);base64,(.*)$/s.exec(value);
		if (!m) throw new TypeError("image() takes a base64 data: URL, { image_url } or an image block; remote URLs are not supported");
		mimeType = m[1];
		data = m[2];
	} else if (value && typeof value === "object" && value.type === "image") {
		data = value.data;
		mimeType = value.mimeType;
	} else if (value && typeof value === "object" && "image_url" in value) {
		const url = typeof value.image_url === "string" ? value.image_url : value.image_url && value.image_url.url;
		return image(url);
	} else {
		throw new TypeError("image() takes a base64 data: URL, { image_url } or an image block");
	}
	if (typeof data !== "string" || typeof mimeType !== "string") throw new TypeError("image(): data and mimeType must be strings");
	host.image(mimeType, data);
}

function line(args) {
	let out = "";
	for (let i = 0; i < args.length; i++) out += (i > 0 ? " " : "") + asText(args[i]);
	return out;
}
const console = Object.freeze({
	log: (...args) => host.console(line(args)),
	info: (...args) => host.console(line(args)),
	warn: (...args) => host.console(line(args)),
	error: (...args) => host.console(line(args)),
	debug: (...args) => host.console(line(args)),
});

function store(key, value) {
	if (typeof key !== "string") throw new TypeError("store(key, value): key must be a string");
	if (value === undefined) return host.store(key);
	const json = stringify(value);
	if (json === undefined) throw new TypeError("store(): the value cannot be stored as JSON");
	host.store(key, json);
}

function load(key) {
	if (typeof key !== "string") throw new TypeError("load(key): key must be a string");
	const json = host.load(key);
	return json === undefined ? undefined : parse(json);
}

function exit() {
	host.exit();
}

const searchTools = (query, options) => callHost("searchTools", "searchTools", { query: String(query), ...(options || {}) });
const describeTool = (name) => callHost("describeTool", String(name), {});
const describeNamespace = (name) => callHost("describeNamespace", String(name), {});

const models = Object.freeze({
	getModelsOfType: (type, provider) => callHost("models", "getModelsOfType", { type, provider }),
	getAvailableOfType: (type, provider) => callHost("models", "getAvailableOfType", { type, provider }),
	getModelOfType: (type, provider, id) => callHost("models", "getModelOfType", { type, provider, id }),
	classify: (model, context) => callHost("models", "classify", { model, context }),
	generateImages: (model, context) => callHost("models", "generateImages", { model, context }),
});

const globals = { tools, ALL_TOOLS, text, image, console, store, load, exit, searchTools, describeTool, describeNamespace, models };
for (const key of Object.keys(globals)) {
	Object.defineProperty(globalThis, key, { value: globals[key], writable: true, configurable: true, enumerable: false });
}

return function run(script) {
	return script().then((value) => {
		if (value !== undefined) text(value);
	});
};
})(globalThis.__pi)`;
