// Pi as a child process: RpcClient spawns `pi --mode rpc` (the built CLI of
// this package by default; pass cliPath for another) and speaks the JSON-lines
// protocol for you. The same commands work from any language; see docs/rpc.md.
//
//   npm run build && npx tsx packages/coding-agent/examples/07-rpc-client.ts
import { RpcClient } from "@pi/coding-agent";

const model = process.env.PI_EXAMPLE_MODEL;
const client = new RpcClient({ args: ["--no-session", ...(model ? ["--model", model] : [])] });
await client.start();

client.onEvent((event) => {
	if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") {
		process.stdout.write(event.assistantMessageEvent.delta);
	}
});

const state = await client.getState();
console.log(`model: ${state.model ? `${state.model.provider}/${state.model.id}` : "none"}`);
const settled = client.waitForIdle();
await client.prompt("Say hello in five words.");
await settled;
process.stdout.write("\n");
console.log(`last: ${await client.getLastAssistantText()}`);
await client.stop();
