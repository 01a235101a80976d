// Entry point of the `pi` executable. Kept tiny: it only hands over to main(),
// which imports the heavy parts lazily once the arguments say what is needed.
import { main } from "./main.js";

main(process.argv.slice(2)).then(
	(code) => {
		process.exitCode = code;
	},
	(error: unknown) => {
		process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
		process.exitCode = 1;
	},
);
