// The real Claude Code (pinned in package.json) with the planls plugin,
// against a scripted model on 127.0.0.1. Every assertion is on what Claude
// Code sent the model, or on the project's files.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
	claudeBin, claudeHome, cleanEnv, newest, project, read, repo, run, save, sh, spawnAgent, tail,
	textOf, Tmux, toolResult, waitUntil, expectMatch,
} from "./lib/agent.mjs";
import { startModel } from "./lib/model.mjs";

const KEY = "sk-ant-test-0123456789abcdefghij";
const TODO = "mcp__plugin_planls_planls__todo";
// The seed's error for completing without evidence, verbatim.
const NO_EVIDENCE = "Error: evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open";

const PLAN = `# Ship the tokenizer

## Changes
- Write the lexer in lex.go
- Write the parser in parse.go

## Verification
- \`go test ./...\` passes
`;

// The two commands the README gives, run as a new user would (HOME is new).
function installPlugin(home) {
	const env = cleanEnv({ HOME: home });
	const log = [
		`$ claude plugin marketplace add ${repo}`, sh(claudeBin, ["plugin", "marketplace", "add", repo], { env }),
		"$ claude plugin install planls@planls", sh(claudeBin, ["plugin", "install", "planls@planls"], { env }),
	].join("\n");
	expectMatch(log, /Successfully installed plugin: planls@planls/);
	return log;
}

// keysUntilTurn sends keys and waits for the agent's next request, sending
// them again while none comes (a TUI under load may draw a prompt before it
// reads keys): five tries of 20 s.
async function keysUntilTurn(model, send) {
	for (let i = 0; ; i++) {
		send();
		try {
			return await model.turn(20000, "the request the keys should start");
		} catch (e) {
			if (i === 4) throw e;
		}
	}
}

test("Claude Code: plan mode → approved plan, the todo tool's seed texts, the Stop reminder, diagnostics", async (t) => {
	const model = await startModel("anthropic");
	const dir = project({ "README.md": "# tokenizer\n", "lex.go": "package tokenizer\n" });
	const home = claudeHome(dir, KEY);
	const tmux = new Tmux("claude");
	t.after(async () => {
		save("claude-code-requests.json", JSON.stringify(model.requests.map((r) => r.body), null, 1));
		tmux.kill();
		await model.close();
	});
	save("claude-code-install.txt", installPlugin(home));

	const env = cleanEnv({ HOME: home, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: KEY });
	tmux.start(dir, env, [claudeBin, "--permission-mode", "plan", "--debug", "--allowedTools", `${TODO} Edit Read`]);
	await tmux.waitFor(/plan mode on/);

	// 1. Plan mode names the plan file; the model writes the plan there.
	let r = await keysUntilTurn(model, () => {
		// Typed again only while the prompt still shows nothing was sent.
		if (!/Plan the tokenizer work/.test(tmux.screen())) tmux.type("Plan the tokenizer work");
		tmux.keys("Enter");
	});
	const sys = JSON.stringify(r.body);
	const m = sys.match(/create your plan at (\/[^ "\\]+\.md)/);
	assert.ok(m, "plan mode's system prompt names the plan file");
	const planFile = m[1];
	assert.ok(planFile.startsWith(join(home, ".claude/plans/")), planFile);
	r.reply({ tools: [{ name: "Write", input: { file_path: planFile, content: PLAN } }] });

	// 2. ExitPlanMode; the user accepts the plan in the TUI.
	r = await model.turn();
	r.reply({ tools: [{ name: "ExitPlanMode", input: { plan: PLAN } }] });
	save("claude-code-approve.txt", await tmux.waitFor(/Would you like to proceed\?/));

	// 3. planls approved that plan: the model reads the hook's note.
	r = await keysUntilTurn(model, () => {
		// "2. Yes, manually approve edits" (Edit is allowed by --allowedTools)
		if (/Would you like to proceed\?/.test(tmux.screen())) tmux.keys("2");
	});
	const approvedTurn = tail(r.body, 2);
	expectMatch(approvedTurn, /User has approved your plan/);
	expectMatch(approvedTurn, /planls: the plan the user accepted is now the approved plan in PLAN\.md\. Approved plan "Ship the tokenizer": 3 plan items \(0 kept, 3 new, 0 removed\)/);
	assert.equal(readFileSync(join(dir, "PLAN.md"), "utf8"), PLAN);
	expectMatch(run(dir, "status"), /Plan: Ship the tokenizer -- 3\/3 plan items open/);
	save("claude-code-approved.txt", tmux.screen());

	// 4. The todo tool: deferred in 2.1, loaded by ToolSearch.
	r.reply({ tools: [{ name: "ToolSearch", input: { query: `select:${TODO}` } }] });
	r = await model.turn();
	assert.ok(r.body.tools.some((x) => x.name === TODO), "the todo tool is loaded");
	let [id] = r.reply({ tools: [{ name: TODO, input: { action: "update", id: 1, status: "completed" } }] });

	// 5. Completing without evidence: the seed's error is what the model reads.
	r = await model.turn();
	let res = toolResult(r.body, id);
	assert.equal(res.is_error, true);
	assert.equal(textOf(res.content), NO_EVIDENCE);
	[id] = r.reply({ tools: [{ name: TODO, input: { action: "update", id: 1, status: "completed", evidence: "lex.go:1 and `go test ./...` passes" } }] });

	// 6. With evidence: the seed's text, not the snapshot's JSON.
	r = await model.turn();
	res = toolResult(r.body, id);
	assert.equal(textOf(res.content), "Updated #1 (pending → completed)");
	assert.notEqual(res.is_error, true);

	// 7. Ending the turn with items open: the Stop hook blocks, and the next
	// request carries the reminder.
	r.reply({ text: "The lexer is done." });
	r = await model.turn();
	const reminder = tail(r.body, 2);
	expectMatch(reminder, /Stop hook/);
	expectMatch(reminder, /Plan check: the approved plan "Ship the tokenizer" still has 2\/3 items open\. Do not tell the user the work is done\./);
	// The stop hook lists subjects as people read them (no markdown).
	expectMatch(reminder, /- #2 \[Changes\] Write the parser in parse\.go\n- #3 \[Verification\] go test \.\/\.\.\. passes/);
	// The TUI once it shows the hook's result (a capture for the docs; not asserted).
	save("claude-code-stop.txt", await tmux.waitFor(/Stop hook (reported|feedback)|Ran 1 stop hook/, 20000).catch(() => tmux.screen()));

	// 8. An edit of PLAN.md: planls's diagnostics reach the model. Claude Code
	// attaches what the server published after the next tool call, so the
	// model reads the plan after each publish Claude Code logs (bounded).
	const debugLog = () => read(newest(join(home, ".claude/debug")) ?? "");
	const published = () => (debugLog().match(/Registered 1 diagnostic file\(s\) from plugin:planls:planls for async delivery/g) ?? []).length;
	let seen = published();
	r.reply({ tools: [{ name: "Edit", input: { file_path: join(dir, "PLAN.md"), old_string: "- Write the parser in parse.go\n", new_string: "- Write the parser in parse.go\n- Document the grammar\n" } }] });
	let diags;
	for (let i = 0; i < 6 && !diags; i++) {
		r = await model.turn();
		const s = tail(r.body, 3);
		const d = s.match(/<new-diagnostics>[\s\S]*?<\/new-diagnostics>/g)?.find((x) => x.includes("not in the approved plan: Document the grammar"));
		if (d) {
			diags = d;
			break;
		}
		await waitUntil("planls to publish diagnostics to Claude Code", () => published() > seen);
		seen = published();
		r.reply({ tools: [{ name: "Read", input: { file_path: join(dir, "PLAN.md") } }] });
	}
	assert.ok(diags, "a request carried planls's diagnostics for the edit");
	expectMatch(diags, /\[Line 5:1\] open plan item #2 \(pending\): Write the parser in parse\.go \[open-item\] \(planls\)/);
	expectMatch(diags, /\[Line 6:1\] not in the approved plan: Document the grammar \(re-approve the plan to track it\) \[plan-drift\] \(planls\)/);
	// Nothing stale reached the model: the plan was approved before PLAN.md
	// appeared, so planls never told it the plan was not approved or gone.
	const delivered = model.requests.flatMap((q) => JSON.stringify(q.body.messages ?? []).match(/<new-diagnostics>.*?<\/new-diagnostics>/g) ?? []);
	assert.ok(!delivered.some((d) => /plan-not-approved|no longer in/.test(d)), delivered.join("\n"));
	r.reply({ text: "PLAN.md changed since you approved it: I added \"Document the grammar\". Please review and re-approve." });
	save("claude-code-transcript.txt", [
		"== the approval (PostToolUse on ExitPlanMode)", approvedTurn,
		"== completing without evidence: the tool_result", NO_EVIDENCE,
		"== the Stop hook's reminder", reminder,
		"== diagnostics after the edit of PLAN.md", diags,
	].join("\n\n"));
	// The LSP traffic as Claude Code logged it, for the closing note.
	save("claude-code-debug.txt", debugLog().split("\n").filter((l) => /LSP|planls|Hook/.test(l)).join("\n"));
});

test("Claude Code: SessionStart tells the model what the plan owes, or how to install planls; /planls:status", async (t) => {
	const model = await startModel("anthropic");
	const dir = project({ "PLAN.md": PLAN });
	run(dir, "approve");
	run(dir, "todo", "start", "2");
	const home = claudeHome(dir, KEY);
	t.after(() => model.close());
	const session = async (path, blocks, prompt = "What is left?") => {
		const env = cleanEnv({ HOME: home, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: KEY, ...(path ? { PATH: path } : {}) });
		const a = spawnAgent(claudeBin, ["-p", prompt, "--output-format", "stream-json", "--verbose", "--plugin-dir", join(repo, "agents/claude-code")], { cwd: dir, env });
		const r = await model.turn();
		r.reply({ text: "Items 1 to 3 are open." });
		if (blocks) {
			// The Stop hook blocks once while items are open; its continuation ends.
			const again = await model.turn();
			again.reply({ text: "Still open: #1, #2, #3." });
		}
		assert.equal((await a.exited).code, 0, a.stderr);
		return JSON.stringify(r.body.messages);
	};
	const owed = await session(undefined, true);
	expectMatch(owed, /planls: the approved plan \\"Ship the tokenizer\\" \(PLAN\.md\) has 3 of 3 plan items open\.\\n- #1 \[Changes\] Write the lexer in lex\.go \(pending\)\\n- #2 \[Changes\] Write the parser in parse\.go \(in_progress\)\\n- #3 \[Verification\] go test \.\/\.\.\. passes \(pending\)/);
	// /planls:status: the command's prompt carries planls status.
	const status = await session(undefined, true, "/planls:status");
	expectMatch(status, /<command-name>\/planls:status<\/command-name>.*Plan: Ship the tokenizer -- 3\/3 plan items open\\n  file PLAN\.md, approved [^\\]*\\n  #1 \[pending\] Write the lexer in lex\.go\\n  #2 \[in_progress\] Write the parser in parse\.go/, "the /planls:status request");
	// Without planls on PATH: one message says how to install it.
	const missing = await session("/usr/bin:/bin", false);
	expectMatch(missing, /planls is not installed, so the planls plugin \(plan diagnostics, the todo tool, plan approval, the stop reminder\) is off\. Install it from a clone of planls with: CGO_ENABLED=0 go install \.\/cmd\/planls/);
});
