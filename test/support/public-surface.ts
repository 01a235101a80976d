// Shared by each package's public-surface test: the names a module exports,
// read by the TypeScript checker (so `export *` and type-only names count),
// and the package's list of them in test/public-surface.txt.
import { readFileSync } from "node:fs";
import ts from "typescript";

/** Every name a module exports, `name` for values and `name (type)` for type-only names, sorted. */
export function exportedNames(file: string): string[] {
	const program = ts.createProgram([file], {
		module: ts.ModuleKind.NodeNext,
		moduleResolution: ts.ModuleResolutionKind.NodeNext,
		target: ts.ScriptTarget.ES2022,
		strict: true,
		noEmit: true,
		skipLibCheck: true,
		customConditions: ["development"],
	});
	const checker = program.getTypeChecker();
	const source = program.getSourceFile(file);
	if (!source) throw new Error(`${file} is not part of the program`);
	const moduleSymbol = checker.getSymbolAtLocation(source);
	if (!moduleSymbol) throw new Error(`${file} has no module symbol`);
	return checker
		.getExportsOfModule(moduleSymbol)
		.map((symbol) => {
			const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
			return target.flags & ts.SymbolFlags.Value ? symbol.name : `${symbol.name} (type)`;
		})
		.sort();
}

/** The lines of a public-surface.txt (comments and blank lines dropped): all names, and the value names alone. */
export function readSurfaceList(path: string): { all: string[]; values: string[] } {
	const all = readFileSync(path, "utf8")
		.split("\n")
		.filter((line) => line && !line.startsWith("#"));
	return { all, values: all.filter((line) => !line.endsWith(" (type)")) };
}
