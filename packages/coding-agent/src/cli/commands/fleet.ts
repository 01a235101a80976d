// `pi fleet …` lives in @pi/fleet, a package ABOVE this one (it needs BullMQ,
// Redis and PostgreSQL clients most users never load). It is imported by name
// at run time, never statically, so the layer rule holds and pi starts and
// works without it installed.
import type { CommandIo } from "./io.js";

const FLEET_PACKAGE = "@pi/fleet";

interface FleetModule {
	runFleetCommand(argv: readonly string[], io: CommandIo): Promise<number>;
}

export async function runFleetCommand(argv: readonly string[], io: CommandIo): Promise<number> {
	let fleet: FleetModule;
	try {
		// A variable specifier: bundlers leave it to Node's resolution at run time.
		const name = FLEET_PACKAGE;
		fleet = (await import(name)) as FleetModule;
	} catch (e) {
		const err = e as NodeJS.ErrnoException;
		if (err.code === "ERR_MODULE_NOT_FOUND" && String(err.message).includes(FLEET_PACKAGE)) {
			io.stderr.write(
				`Error: \`pi fleet\` needs the ${FLEET_PACKAGE} package (packages/fleet in the pi repository), which is not installed next to this pi.\n`,
			);
			return 1;
		}
		throw e;
	}
	return fleet.runFleetCommand(argv, io);
}
