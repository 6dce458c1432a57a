// A scripted OpenAI-compatible chat-completions endpoint on 127.0.0.1, for
// driving the real pi in tests. Each request takes the next reply from the
// queue the test filled (tool calls or text) and streams it back as
// server-sent events; every request body is kept for the test to inspect.
import { writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";

/**
 * startFakeModel listens on an ephemeral loopback port. reply(step) queues
 * one answer: {text} or {calls: [{name, args}]}. requests holds the parsed
 * bodies in arrival order. An empty queue answers "(script ended)".
 * aside(body) may answer a request itself (a step) without using the queue,
 * for requests an extension makes on its own schedule.
 */
export async function startFakeModel({ aside = () => undefined } = {}) {
	const queue = [];
	const requests = [];
	let callSeq = 0;
	const server = http.createServer((req, res) => {
		let body = "";
		req.setEncoding("utf8");
		req.on("data", (c) => (body += c));
		req.on("end", () => {
			let parsed = {};
			try {
				parsed = JSON.parse(body);
			} catch {
				res.writeHead(400).end();
				return;
			}
			const own = aside(parsed);
			if (!own) requests.push(parsed);
			const step = own ?? queue.shift() ?? { text: "(script ended)" };
			res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
			const base = { id: `chatcmpl-${requests.length}`, object: "chat.completion.chunk", created: 0, model: parsed.model };
			const send = (choice) => res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }] })}\n\n`);
			if (step.calls) {
				send({ delta: { role: "assistant", content: null }, finish_reason: null });
				step.calls.forEach((c, i) => {
					send({
						delta: {
							tool_calls: [{ index: i, id: `call_${++callSeq}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } }],
						},
						finish_reason: null,
					});
				});
				send({ delta: {}, finish_reason: "tool_calls" });
			} else {
				send({ delta: { role: "assistant", content: step.text }, finish_reason: null });
				send({ delta: {}, finish_reason: "stop" });
			}
			res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } })}\n\n`);
			res.end("data: [DONE]\n\n");
		});
	});
	await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
	const url = `http://127.0.0.1:${server.address().port}/v1`;
	return {
		url,
		requests,
		reply: (...steps) => queue.push(...steps),
		pending: () => queue.length,
		/** writeModels points pi's models.json in agentDir at this endpoint (provider fake, model scripted). */
		writeModels: (agentDir) =>
			writeFileSync(
				join(agentDir, "models.json"),
				JSON.stringify({ providers: { fake: { baseUrl: url, api: "openai-completions", apiKey: "test", models: [{ id: "scripted" }] } } }),
			),
		close: () => new Promise((ok) => server.close(ok)),
	};
}
