// A small client for `pi --mode rpc`: JSON records on stdin/stdout, split on
// LF only (pi's framing rule), with waits that resolve on events.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function startPi({ bin, args, cwd, env }) {
	const child = spawn(bin, ["--mode", "rpc", ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
	const events = [];
	const listeners = new Set();
	let buf = Buffer.alloc(0);
	let stderr = "";
	let seq = 0;
	child.stderr.on("data", (b) => (stderr += b));
	child.stdout.on("data", (b) => {
		buf = Buffer.concat([buf, b]);
		for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10)) {
			const line = buf.subarray(0, nl).toString("utf8").replace(/\r$/, "");
			buf = buf.subarray(nl + 1);
			if (!line) continue;
			const rec = JSON.parse(line);
			events.push(rec);
			for (const l of [...listeners]) l(rec);
		}
	});
	const exited = new Promise((ok) => child.on("close", (code) => ok(code)));

	/** waitFor resolves with the first record (from index from on) that pred accepts. */
	function waitFor(pred, { from = 0, timeoutMs = 60_000, what = "event" } = {}) {
		return new Promise((ok, fail) => {
			for (const rec of events.slice(from)) if (pred(rec)) return ok(rec);
			const timer = setTimeout(() => {
				listeners.delete(check);
				fail(new Error(`timed out waiting for ${what}; stderr:\n${stderr}`));
			}, timeoutMs);
			const check = (rec) => {
				if (!pred(rec)) return;
				clearTimeout(timer);
				listeners.delete(check);
				ok(rec);
			};
			listeners.add(check);
			exited.then(() => {
				clearTimeout(timer);
				listeners.delete(check);
				fail(new Error(`pi exited while waiting for ${what}; stderr:\n${stderr}`));
			});
		});
	}

	async function command(cmd) {
		const id = `req-${++seq}`;
		const from = events.length;
		child.stdin.write(`${JSON.stringify({ ...cmd, id })}\n`);
		const res = await waitFor((r) => r.type === "response" && r.id === id, { from, what: `response to ${cmd.type}` });
		if (!res.success) throw new Error(`${cmd.type} failed: ${res.error}`);
		return res;
	}

	/** prompt sends one prompt and, when it starts a run, waits until pi settles. Returns the records it produced. */
	async function prompt(message) {
		const from = events.length;
		const res = await command({ type: "prompt", message });
		if (res.data?.disposition !== "handled") await waitFor((r) => r.type === "agent_settled", { from, what: `settling after ${message}` });
		return events.slice(from);
	}

	async function stop() {
		child.stdin.end();
		const timer = setTimeout(() => child.kill("SIGTERM"), 10_000);
		await exited;
		clearTimeout(timer);
	}

	return { events, waitFor, command, prompt, stop, stderr: () => stderr };
}

// tempProject makes a temp dir, removed after the test, holding an empty pi
// agent dir and a git repository for the project: {tmp, agent, proj}.
export function tempProject(t, prefix) {
	const tmp = mkdtempSync(join(tmpdir(), prefix));
	t.after(() => rmSync(tmp, { recursive: true, force: true }));
	const agent = join(tmp, "agent");
	const proj = join(tmp, "proj");
	mkdirSync(agent);
	mkdirSync(proj);
	execFileSync("git", ["init", "-q", proj]);
	return { tmp, agent, proj };
}
