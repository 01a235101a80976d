/**
 * The streams and environment a command runs with. Structurally the same as
 * `SubcommandIo` in ../subcommands.ts, declared here so that commands do not
 * import the registry that lazily imports them (an import cycle).
 */
export interface CommandIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
	cwd: string;
}
