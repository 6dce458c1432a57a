// The real Codex CLI (pinned in package.json) with the planls plugin from
// this repository's marketplace, against a scripted Responses API on
// 127.0.0.1. Assertions are on what Codex sent the model.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { cleanEnv, codexBin, expectMatch, project, repo, run, save, scratch, sh, spawnAgent } from "./lib/agent.mjs";
import { startModel } from "./lib/model.mjs";

const NO_EVIDENCE = "Error: evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open";

// outputOf is the text Codex gave the model for a function call.
function outputOf(body, callId) {
	const item = body.input.find((i) => i.type === "function_call_output" && i.call_id === callId);
	assert.ok(item, `no output for ${callId}`);
	return typeof item.output === "string" ? item.output : item.output.map((c) => c.text).join("\n");
}

test("Codex CLI: SessionStart note, the todo tool's seed texts, the Stop reminder", async (t) => {
	const model = await startModel("responses");
	const dir = project({ "PLAN.md": "# Ship the tokenizer\n\n## Changes\n- Write the lexer in lex.go\n- Write the parser in parse.go\n", "lex.go": "package tokenizer\n" });
	run(dir, "approve");
	const home = scratch("codex-home");
	const codexHome = join(home, ".codex");
	mkdirSync(codexHome);
	writeFileSync(join(codexHome, "config.toml"), [
		`model = "gpt-test"`,
		`model_provider = "local"`,
		`[model_providers.local]`,
		`name = "scripted model on 127.0.0.1"`,
		`base_url = "${model.url}/v1"`,
		`wire_api = "responses"`,
		`env_key = "LOCAL_MODEL_KEY"`,
		"",
	].join("\n"));
	const env = cleanEnv({ HOME: home, CODEX_HOME: codexHome, LOCAL_MODEL_KEY: "test" });
	t.after(async () => {
		save("codex-requests.json", JSON.stringify(model.requests.map((r) => r.body), null, 1));
		await model.close();
	});
	// The two commands docs/AGENTS.md gives for Codex.
	save("codex-install.txt", [
		`$ codex plugin marketplace add ${repo}`, sh(codexBin, ["plugin", "marketplace", "add", repo], { env }),
		"$ codex plugin add planls@planls", sh(codexBin, ["plugin", "add", "planls@planls"], { env }),
	].join("\n"));

	// exec cannot ask for approvals or trust, so this run grants them.
	const a = spawnAgent(codexBin, ["exec", "--dangerously-bypass-hook-trust", "--dangerously-bypass-approvals-and-sandbox", "Finish the lexer"], { cwd: dir, env });
	t.after(() => a.child.kill());

	// SessionStart: what the plan owes, as a developer message.
	let r = await model.turn();
	const start = JSON.stringify(r.body.input);
	expectMatch(start, /planls: the approved plan \\"Ship the tokenizer\\" \(PLAN\.md\) has 2 of 2 plan items open\.\\n- #1 \[Changes\] Write the lexer in lex\.go \(pending\)\\n- #2 \[Changes\] Write the parser in parse\.go \(pending\)/, "the first request");
	const ns = r.body.tools.find((x) => x.type === "namespace" && x.name === "mcp__planls");
	assert.ok(ns && ns.tools.some((x) => x.name === "todo"), "the todo tool is offered as mcp__planls.todo");

	// Completing without evidence: the seed's error text, not JSON.
	let [id] = r.reply({ tools: [{ namespace: "mcp__planls", name: "todo", input: { action: "update", id: 1, status: "completed" } }] });
	r = await model.turn();
	const refused = outputOf(r.body, id);
	assert.ok(refused.endsWith(`\n${NO_EVIDENCE}`), refused);
	assert.ok(!refused.includes('"error"'), refused);

	[id] = r.reply({ tools: [{ namespace: "mcp__planls", name: "todo", input: { action: "update", id: 1, status: "completed", evidence: "lex.go:1, `go test ./...` passes" } }] });
	r = await model.turn();
	const updated = outputOf(r.body, id);
	assert.ok(updated.endsWith("\nUpdated #1 (pending → completed)"), updated);

	// Ending with #2 open: the Stop hook blocks; the reminder comes as a hook prompt.
	r.reply({ text: "The lexer is done." });
	r = await model.turn();
	const last = JSON.stringify(r.body.input.at(-1));
	expectMatch(last, /<hook_prompt hook_run_id=\\"stop:[^>]*>Plan check: the approved plan \\"Ship the tokenizer\\" still has 1\/2 items open\. Do not tell the user the work is done\.\\nOpen plan items:\\n- #2 \[Changes\] Write the parser in parse\.go\\n/, "the request after the stop");
	r.reply({ text: "#2 (the parser) is still open." });
	// The hook's own continuation is let go: Codex ends.
	const { code } = await a.exited;
	assert.equal(code, 0, a.stderr.slice(-2000));
	expectMatch(a.stdout, /#2 \(the parser\) is still open\./, "codex's output");
	save("codex-transcript.txt", [
		"== SessionStart (developer message)", r.body.input.length ? JSON.parse(start).map((m) => JSON.stringify(m.content ?? "")).find((c) => c.includes("planls: the approved plan")) : "",
		"== todo without evidence", refused,
		"== todo with evidence", updated,
		"== the Stop hook", last,
	].join("\n\n"));
	assert.match(run(dir, "status"), /1\/2 plan items open/);
});
