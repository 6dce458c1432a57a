// The package as npm publishes it: `npm pack`, served by a one-package npm
// registry on 127.0.0.1, then `pi install npm:@planls/pi@<version>` (pi runs
// npm against that registry exactly as against the public one) and one todo
// call. pi cannot install a tarball path: it finds an installed npm package by
// the name in its source, and a path names none.
import assert from "node:assert/strict";
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import http from "node:http";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startFakeModel } from "./fake-model.mjs";
import { startPi, tempProject } from "./rpc.mjs";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const piBin = join(pkg, "node_modules", ".bin", "pi");

test("installs from an npm registry (npm pack, pi install npm:@planls/pi@0.1.0) and answers through planls", async (t) => {
	const planls = process.env.PLANLS_BIN;
	assert.ok(planls, "PLANLS_BIN is set (run.sh sets it)");
	const { tmp, agent, proj } = tempProject(t, "planls-pi-npm-");
	const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], { cwd: pkg, encoding: "utf8" }))[0];
	const files = packed.files.map((f) => f.path).sort();
	assert.deepEqual(files, ["README.md", "package.json", "src/approval.ts", "src/config.ts", "src/mode.ts", "src/planls-pi.ts", "src/planls.ts", "src/schema.ts", "src/view.ts"]);
	const tarball = readFileSync(join(tmp, packed.filename));
	const registry = await serveOnePackage(packed.name, packed.version, tarball);
	t.after(() => registry.close());
	const model = await startFakeModel();
	t.after(() => model.close());
	model.writeModels(agent);
	// The guidance is overridable, as rpiv-todo's is.
	const xdg = join(tmp, "xdg");
	mkdirSync(join(xdg, "planls-pi"), { recursive: true });
	writeFileSync(
		join(xdg, "planls-pi", "config.json"),
		JSON.stringify({ guidance: { promptSnippet: "Track the work with planls", promptGuidelines: ["Call todo list before anything else."] } }),
	);
	const env = { ...process.env, HOME: tmp, XDG_CONFIG_HOME: xdg, PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1", PLANLS_BIN: planls, npm_config_registry: registry.url };
	delete env.PLANLS_ROOT;
	const source = `npm:${packed.name}@${packed.version}`;
	// async: the registry answers from this process
	await promisify(execFile)(piBin, ["install", source], { env, encoding: "utf8" });
	assert.deepEqual(JSON.parse(readFileSync(join(agent, "settings.json"), "utf8")).packages, [source]);

	const pi = startPi({ bin: piBin, args: ["--provider", "fake", "--model", "scripted", "--no-session"], cwd: proj, env });
	t.after(() => pi.stop());
	model.reply({ calls: [{ name: "todo", args: { action: "create", subject: "Write the parser" } }] }, { text: "Added." });
	const records = await pi.prompt("Track the parser.");
	const system = model.requests[0].messages[0].content;
	assert.match(system, /- todo: Track the work with planls\n/);
	assert.match(system, /- Call todo list before anything else\./);
	assert.doesNotMatch(system, /Completing a `todo` task needs evidence/);
	const done = records.filter((r) => r.type === "tool_execution_end" && r.toolName === "todo");
	assert.deepEqual(done.map((r) => r.result.content[0].text), ["Created #1: Write the parser (pending)"]);
	const st = JSON.parse(readFileSync(join(proj, ".planls", "state.json"), "utf8"));
	assert.deepEqual(st.tasks.map((x) => [x.id, x.subject, x.status]), [[1, "Write the parser", "pending"]]);

	// Outside any project the tool answers with planls's own error, in-band.
	const outside = join(tmp, "outside");
	mkdirSync(outside);
	const cli = spawnSync(planls, ["todo", "list"], { cwd: outside, encoding: "utf8", env });
	const expected = cli.stderr.split("\n").find((l) => l.startsWith("Error: "));
	assert.match(expected, /^Error: no planls root found/);
	const away = startPi({ bin: piBin, args: ["--provider", "fake", "--model", "scripted", "--no-session"], cwd: outside, env });
	t.after(() => away.stop());
	model.reply({ calls: [{ name: "todo", args: { action: "list" } }] }, { text: "No project." });
	const got = (await away.prompt("List the todos.")).filter((r) => r.type === "tool_execution_end" && r.toolName === "todo");
	assert.deepEqual(got.map((r) => r.result.content[0].text), [expected]);
	assert.equal(got[0].result.details.error, expected.slice("Error: ".length));
	assert.deepEqual(got[0].result.details.tasks, []);
});

/** serveOnePackage is an npm registry holding one package version: its packument and its tarball. */
async function serveOnePackage(name, version, tarball) {
	const integrity = `sha512-${createHash("sha512").update(tarball).digest("base64")}`;
	const shasum = createHash("sha1").update(tarball).digest("hex");
	const server = http.createServer((req, res) => {
		const url = decodeURIComponent(req.url ?? "");
		if (url === `/${name}`) {
			const tarballUrl = `http://127.0.0.1:${server.address().port}/tarball.tgz`;
			res.writeHead(200, { "content-type": "application/json" });
			res.end(JSON.stringify({ name, "dist-tags": { latest: version }, versions: { [version]: { name, version, dist: { tarball: tarballUrl, integrity, shasum } } } }));
		} else if (url === "/tarball.tgz") {
			res.writeHead(200, { "content-type": "application/octet-stream" });
			res.end(tarball);
		} else {
			res.writeHead(404, { "content-type": "application/json" });
			res.end("{}");
		}
	});
	await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
	return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}
