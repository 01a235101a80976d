// The package version, inlined by the bundler so `pi --version` reads no file.
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
