// Floor for resuming a session and running one turn: read the whole session
// file in 4 MB chunks (counting lines, parsing nothing), send one streamed
// chat request, print the answer. What a resume cannot go below.
//
//   node bench/floor/resume.mjs <session.jsonl> <baseUrl>
import { closeSync, openSync, readSync } from "node:fs";
import { post, readSse } from "./http-post.mjs";

const [file, base] = process.argv.slice(2);
const fd = openSync(file, "r");
const buf = Buffer.allocUnsafe(4 * 1024 * 1024);
let lines = 0;
for (let pos = 0; ; ) {
	const n = readSync(fd, buf, 0, buf.length, pos);
	if (n === 0) break;
	pos += n;
	for (let i = buf.indexOf(10); i >= 0 && i < n; i = buf.indexOf(10, i + 1)) lines++;
}
closeSync(fd);
const messages = [{ role: "user", content: `hi (${lines} lines)` }];
const { content } = readSse(await post(`${base}/chat/completions`, { model: "fake-model", stream: true, messages }));
process.stdout.write(`${content}\n`, () => process.exit(0));
