/** What both grep engines (ripgrep and pure JS) produce, in the same deterministic order. */
export interface GrepMatch {
	/** Posix path relative to the search directory (the file name when a single file was searched). */
	rel: string;
	/** 1-indexed line number. */
	line: number;
	/** The matching line, without its line terminator. */
	text: string;
}

export interface GrepQuery {
	/** Absolute directory or file to search. */
	target: string;
	targetIsFile: boolean;
	pattern: string;
	literal: boolean;
	ignoreCase: boolean;
	glob?: string;
	/** Stop after this many matches (callers ask for limit + 1 to know whether the limit was hit). */
	maxMatches: number;
	signal?: AbortSignal;
	/** JS engine only: stop with an error after this long (default 60 s). */
	timeLimitMs?: number;
}

export interface FindQuery {
	/** Absolute directory to search. */
	root: string;
	pattern: string;
	signal?: AbortSignal;
	/** JS engine only: stop with an error after this long (default 60 s). */
	timeLimitMs?: number;
}
