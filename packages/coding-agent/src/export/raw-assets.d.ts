// Page assets imported as text: Vite (tests) and the esbuild plugin in
// scripts/build.mjs both turn `./file?raw` into the file's contents.
declare module "*?raw" {
	const text: string;
	export default text;
}
