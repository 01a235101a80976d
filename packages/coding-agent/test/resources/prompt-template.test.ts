// Template expansion (pure): argument quoting and every substitution form.
import { describe, expect, it } from "vitest";
import {
	expandPromptTemplate,
	parseCommandArgs,
	splitSlashCommand,
	substituteArgs,
} from "../../src/input/prompt-template.js";

describe("parseCommandArgs (shell-like quoting)", () => {
	it.each([
		["a b  c", ["a", "b", "c"]],
		["  lead   trail  ", ["lead", "trail"]],
		["a\tb\nc", ["a", "b", "c"]],
		['"API compatibility" x', ["API compatibility", "x"]],
		["'single q' \"dbl\"", ["single q", "dbl"]],
		["doesn't work", ["doesn't", "work"]], // a quote inside a word is text
		['"unclosed arg', ['"unclosed', "arg"]], // no closing match: kept as text
		["x 'y", ["x", "'y"]],
		['"the \\"fast\\" path"', ['the "fast" path']], // backslash before the same quote
		["'it\\'s'", ["it's"]],
		['"a\\\'b"', ["a\\'b"]], // backslash before the other quote: kept
		['back\\slash "x\\y"', ["back\\slash", "x\\y"]], // other backslashes kept as typed
		['"foo"bar baz', ["foobar", "baz"]], // text after a closing quote continues the argument
		['"a b"c d', ["a bc", "d"]],
		['a"b c"d', ['a"b', 'c"d']],
		['"" x', ["", "x"]],
		["", []],
	])("%j → %j", (input, expected) => {
		expect(parseCommandArgs(input)).toEqual(expected);
	});
});

describe("substituteArgs", () => {
	it("$1, $2 … (missing positions are empty; multi-digit positions)", () => {
		expect(substituteArgs("$1 and $2 and $3", ["a", "b"])).toBe("a and b and ");
		expect(substituteArgs("$10 $1", ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"])).toBe("j a");
	});
	it("$@ and $ARGUMENTS join all arguments with spaces", () => {
		expect(substituteArgs("$@ | $ARGUMENTS", ["a", "b c"])).toBe("a b c | a b c");
		expect(substituteArgs("$ARGUMENTSX", ["a"])).toBe("aX");
	});
	it("${N:-default} applies when the argument is missing or empty", () => {
		expect(substituteArgs("${1:-def} ${2:-two}", ["", "x"])).toBe("def x");
		expect(substituteArgs("${1:-def}", [])).toBe("def");
		expect(substituteArgs("${1:-def}", ["given"])).toBe("given");
		expect(substituteArgs("${1:-}", [])).toBe("");
	});
	it("${@:-default} (and ${ARGUMENTS:-default}) apply when there are no arguments", () => {
		expect(substituteArgs("${@:-all def}", [])).toBe("all def");
		expect(substituteArgs("${@:-all def}", ["x", "y"])).toBe("x y");
		expect(substituteArgs("${ARGUMENTS:-d}", [])).toBe("d");
	});
	it("${@:N} and ${@:N:L} slice from position N (1-based; 0 counts as 1)", () => {
		expect(substituteArgs("${@:2}", ["a", "b", "c"])).toBe("b c");
		expect(substituteArgs("${@:2:1}", ["a", "b", "c"])).toBe("b");
		expect(substituteArgs("${@:1:2}", ["a", "b", "c"])).toBe("a b");
		expect(substituteArgs("${@:0}", ["a", "b"])).toBe("a b");
		expect(substituteArgs("${@:5}", ["a"])).toBe("");
		expect(substituteArgs("${@:1:0}|", ["a"])).toBe("|");
	});
	it("values are not substituted again; unknown forms stay as typed", () => {
		expect(substituteArgs("cost $5 $@", ["$1"])).toBe("cost  $1");
		expect(substituteArgs("${1:-$2}", [])).toBe("$2");
		expect(substituteArgs("${1} ${@:2:-1} $x $", ["a"])).toBe("${1} ${@:2:-1} $x $");
	});
});

describe("expandPromptTemplate", () => {
	const templates = [
		{ name: "review", content: "Review it." },
		{ name: "fix", content: "Fix $1 (${2:-all})" },
	];
	it("expands /name args, keeps other text unchanged", () => {
		expect(expandPromptTemplate("/fix bug", templates)).toBe("Fix bug (all)");
		expect(expandPromptTemplate('/fix "two words" now', templates)).toBe("Fix two words (now)");
		expect(expandPromptTemplate("/fix\tq", templates)).toBe("Fix q (all)");
		expect(expandPromptTemplate("/review a b", templates)).toBe("Review it.");
		expect(expandPromptTemplate("/unknown x", templates)).toBe("/unknown x");
		expect(expandPromptTemplate(" /review", templates)).toBe(" /review");
		expect(expandPromptTemplate("review", templates)).toBe("review");
	});
	it("splits commands", () => {
		expect(splitSlashCommand("/a  b c")).toEqual({ name: "a", args: "b c" });
		expect(splitSlashCommand("/")).toBeUndefined();
		expect(splitSlashCommand("x")).toBeUndefined();
	});
});
