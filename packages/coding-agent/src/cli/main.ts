// Placeholder until the CLI issue lands: prints the version or a clear notice.
export async function main(args: string[]): Promise<number> {
	if (args.includes("--version") || args.includes("-v")) {
		process.stdout.write("0.1.0\n");
		return 0;
	}
	process.stderr.write("pi: the CLI is not wired up yet in this build.\n");
	return 1;
}
