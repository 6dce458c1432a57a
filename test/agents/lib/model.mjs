// A scripted model server on 127.0.0.1 for the real Claude Code (Anthropic
// Messages API, server-sent events) and Codex CLI (OpenAI Responses API).
//
// The test plays the model: `await model.turn()` waits for the agent's next
// main request (one that offers tools) and returns it with reply(), which
// answers it with text and/or tool calls. Side requests (titles, summaries:
// no tools) are answered at once with a short text. Every request is kept in
// model.requests for assertions on what the agent sent.
import { createServer } from "node:http";

/** A bounded wait: rejects after ms with what it waited for. */
export function within(ms, what, promise) {
	let timer;
	const limit = new Promise((_, reject) => {
		timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
	});
	return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * startModel listens on 127.0.0.1 on a free port. kind is "anthropic" or
 * "responses". isMain(body) tells a request the script answers from a side
 * request (default: it offers tools).
 */
export async function startModel(kind, { isMain, log } = {}) {
	const requests = [];
	const waiting = []; // resolvers of turn()
	const pending = []; // main requests nobody waited for yet
	let seq = 0;
	const main = isMain ?? ((b) => Array.isArray(b.tools) && b.tools.length > 0);
	const server = createServer((req, res) => {
		let raw = "";
		req.setEncoding("utf8");
		req.on("data", (c) => (raw += c));
		req.on("end", () => {
			let body = {};
			try {
				body = raw ? JSON.parse(raw) : {};
			} catch {
				body = { unparsed: raw };
			}
			const entry = { method: req.method, path: req.url, headers: req.headers, body, at: Date.now() };
			requests.push(entry);
			log?.(`${req.method} ${req.url}${main(body) ? " (main)" : ""}`);
			if (req.method !== "POST" || !/\/(messages|responses)(\?|$)/.test(req.url)) {
				if (/count_tokens/.test(req.url)) return json(res, { input_tokens: 100 });
				return json(res, {});
			}
			if (!main(body)) return answer(kind, res, body, { text: "ok" }, ++seq);
			// reply answers with { text?, tools?: [{ name, input, namespace? }] }
			// and returns the ids of the tool calls it made.
			const turn = {
				...entry,
				reply: (r) => answer(kind, res, body, r, ++seq),
			};
			entry.main = true;
			const w = waiting.shift();
			if (w) w(turn);
			else pending.push(turn);
		});
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", r));
	const port = server.address().port;
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		requests,
		/** The next main request (waits up to ms for it). */
		turn(ms = 60000, what = "the agent's next model request") {
			const p = pending.shift();
			if (p) return Promise.resolve(p);
			let resolve;
			const next = new Promise((r) => waiting.push((resolve = r)));
			// A wait that timed out gives up its place: the request it missed
			// goes to the next turn().
			return within(ms, what, next).catch((e) => {
				const i = waiting.indexOf(resolve);
				if (i >= 0) waiting.splice(i, 1);
				throw e;
			});
		},
		close: () =>
			new Promise((r) => {
				server.closeAllConnections?.();
				server.close(() => r());
			}),
	};
}

function json(res, v) {
	res.writeHead(200, { "content-type": "application/json" });
	res.end(JSON.stringify(v));
}

function answer(kind, res, body, r, n) {
	if (kind === "anthropic") return anthropic(res, body, r, n);
	return responses(res, body, r, n);
}

// reply: { text?: string, tools?: [{name, input, namespace?}] }

function anthropic(res, body, r, n) {
	const blocks = [];
	if (r.text) blocks.push({ type: "text", text: r.text });
	for (const [i, t] of (r.tools ?? []).entries()) {
		blocks.push({ type: "tool_use", id: `toolu_${n}_${i}`, name: t.name, input: t.input ?? {} });
	}
	const stop = (r.tools ?? []).length > 0 ? "tool_use" : "end_turn";
	const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
	const message = { id: `msg_${n}`, type: "message", role: "assistant", model: body.model ?? "claude-test", stop_reason: null, stop_sequence: null, usage };
	if (!body.stream) {
		json(res, { ...message, content: blocks, stop_reason: stop });
		return blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
	}
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
	ev("message_start", { message: { ...message, content: [] } });
	blocks.forEach((b, index) => {
		if (b.type === "text") {
			ev("content_block_start", { index, content_block: { type: "text", text: "" } });
			ev("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
		} else {
			ev("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
			ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
		}
		ev("content_block_stop", { index });
	});
	ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
	ev("message_stop", {});
	res.end();
	return blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
}

function responses(res, body, r, n) {
	const items = [];
	if (r.text) {
		items.push({ type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: r.text, annotations: [] }] });
	}
	for (const [i, t] of (r.tools ?? []).entries()) {
		const call = { type: "function_call", id: `fc_${n}_${i}`, call_id: `call_${n}_${i}`, name: t.name, arguments: JSON.stringify(t.input ?? {}), status: "completed" };
		if (t.namespace) call.namespace = t.namespace;
		items.push(call);
	}
	const response = { id: `resp_${n}`, object: "response", status: "in_progress", model: body.model ?? "gpt-test", output: [] };
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
	ev("response.created", { response });
	items.forEach((item, output_index) => {
		ev("response.output_item.added", { output_index, item: item.type === "message" ? { ...item, content: [] } : item });
		if (item.type === "message") {
			ev("response.output_text.delta", { output_index, item_id: item.id, content_index: 0, delta: item.content[0].text });
		}
		ev("response.output_item.done", { output_index, item });
	});
	const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
	ev("response.completed", { response: { ...response, status: "completed", output: items, usage } });
	res.end();
	return items.filter((i) => i.type === "function_call").map((i) => i.call_id);
}
