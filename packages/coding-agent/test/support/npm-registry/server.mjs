// Runs verdaccio (a real npm registry) on 127.0.0.1 with an OS-chosen port
// and prints "PORT <n>" once it listens. Argument: the config file.
import { runServer } from "verdaccio";

const app = await runServer(process.argv[2]);
const server = app.listen(0, "127.0.0.1", () => {
	process.stdout.write(`PORT ${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
