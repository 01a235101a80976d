// Entry point of the `pi` executable. Kept tiny: it only hands over to main(),
// which imports the heavy parts lazily once the arguments say what is needed.
import { main } from "./main.js";

// Exit explicitly once stdout has drained: idle keep-alive sockets of HTTP
// clients must not keep a finished run alive.
function exit(code: number): void {
	process.exitCode = code;
	process.stdout.write("", () => process.exit(code));
}

main(process.argv.slice(2)).then(exit, (error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	exit(1);
});
