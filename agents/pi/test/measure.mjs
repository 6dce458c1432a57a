// Measures the two ways this package could reach planls, on a 200-item plan:
// one `planls todo --params - --json` process per call (what src/planls.ts
// does) and a long-lived `planls mcp` child. Not part of the suite: run
//   PLANLS_BIN=/abs/planls node test/measure.mjs
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const bin = process.env.PLANLS_BIN || "planls";
const N = Number(process.env.N || 40);
const dir = mkdtempSync(join(tmpdir(), "planls-pi-measure-"));
execFileSync("git", ["init", "-q", dir]);
writeFileSync(join(dir, "PLAN.md"), `# Big\n\n## Work\n${Array.from({ length: 200 }, (_, i) => `- Item ${i}`).join("\n")}\n`);
execFileSync(bin, ["approve"], { cwd: dir });

const list = { action: "list" };
const update = (i) => ({ action: "update", id: 1, status: i % 2 ? "pending" : "in_progress" });

function cli(params) {
	return new Promise((ok) => {
		const c = spawn(bin, ["todo", "--params", "-", "--json"], { cwd: dir });
		c.stdout.resume();
		c.on("close", ok);
		c.stdin.end(JSON.stringify(params));
	});
}

async function time(label, f) {
	const t = performance.now();
	for (let i = 0; i < N; i++) await f(i);
	console.log(`${label}: ${((performance.now() - t) / N).toFixed(1)} ms/call`);
}

await time("planls todo per call, list", () => cli(list));
await time("planls todo per call, update", (i) => cli(update(i)));

const mcp = spawn(bin, ["mcp"], { cwd: dir, stdio: ["pipe", "pipe", "ignore"] });
let buf = "";
let seq = 0;
const waiting = new Map();
mcp.stdout.on("data", (b) => {
	buf += b;
	for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
		const line = buf.slice(0, nl);
		buf = buf.slice(nl + 1);
		if (line.trim()) {
			const m = JSON.parse(line);
			waiting.get(m.id)?.(m);
		}
	}
});
const rpc = (method, params) =>
	new Promise((ok) => {
		const id = ++seq;
		waiting.set(id, ok);
		mcp.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
	});
const t0 = performance.now();
await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "measure", version: "0" } });
mcp.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
console.log(`planls mcp start + initialize: ${(performance.now() - t0).toFixed(1)} ms`);
await time("planls mcp child, list", () => rpc("tools/call", { name: "todo", arguments: list }));
await time("planls mcp child, update", (i) => rpc("tools/call", { name: "todo", arguments: update(i) }));
mcp.stdin.end();
rmSync(dir, { recursive: true, force: true });
