// Child process for the umask test: stores one API key through AuthStorage
// (run under `umask 000` by the parent). Usage: node auth-writer.mjs <auth.json>
import { AuthStorage } from "../../src/config/auth.js";

const [file] = process.argv.slice(2);
const store = AuthStorage.create(file);
await store.set("fake", { type: "api_key", key: "sk-umask-test" });
process.stdout.write("stored\n");
