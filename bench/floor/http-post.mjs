// The floor scripts' HTTP client: one POST over node:http, the whole body
// back as text. (fetch would add undici's start-up and its WebAssembly HTTP
// parser — tens of ms and MiB — which is not the floor.)
import { request } from "node:http";

export function post(url, body) {
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{ method: "POST", headers: { "content-type": "application/json", authorization: "Bearer fake-key" } },
			(res) => {
				let text = "";
				res.setEncoding("utf8");
				res.on("data", (d) => {
					text += d;
				});
				res.on("end", () => resolve(text));
			},
		);
		req.on("error", reject);
		req.end(JSON.stringify(body));
	});
}

/** Text and tool calls of an OpenAI chat-completions SSE body. */
export function readSse(text) {
	let content = "";
	const calls = [];
	for (const line of text.split("\n")) {
		if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
		const delta = JSON.parse(line.slice(6)).choices?.[0]?.delta;
		if (delta?.content) content += delta.content;
		for (const c of delta?.tool_calls ?? []) calls.push(c);
	}
	return { content, calls };
}
