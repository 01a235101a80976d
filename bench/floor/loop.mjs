// Floor for the print-mode tool loop: what bare Node costs to do the same
// work as `pi -p` against the fake provider — three streamed chat requests,
// write a file, read it back, print the answer. No framework, no session,
// no validation: the lower bound ours is held to.
//
//   node bench/floor/loop.mjs <baseUrl>
import { readFileSync, writeFileSync } from "node:fs";
import { post, readSse } from "./http-post.mjs";

const base = process.argv[2];
const messages = [{ role: "user", content: "Write notes.txt, read it back, then answer." }];

for (;;) {
	const { content, calls } = readSse(
		await post(`${base}/chat/completions`, { model: "fake-model", stream: true, messages }),
	);
	if (calls.length === 0) {
		// Exit once written, as a CLI does (an idle keep-alive socket would hold the process).
		process.stdout.write(`${content}\n`, () => process.exit(0));
		break;
	}
	messages.push({ role: "assistant", tool_calls: calls });
	for (const c of calls) {
		const args = JSON.parse(c.function.arguments);
		let out;
		if (c.function.name === "write") {
			writeFileSync(args.path, args.content);
			out = `wrote ${args.path}`;
		} else out = readFileSync(args.path, "utf8");
		messages.push({ role: "tool", tool_call_id: c.id, content: out });
	}
}
