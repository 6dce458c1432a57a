// Table tests for the package's pure rules, loaded from the TypeScript
// sources the way pi loads them (jiti).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createJiti } from "jiti";

const jiti = createJiti(import.meta.url);
const view = await jiti.import("../src/view.ts");
const mode = await jiti.import("../src/mode.ts");
const approval = await jiti.import("../src/approval.ts");
const config = await jiti.import("../src/config.ts");
const ext = await jiti.import("../src/planls-pi.ts");
const planls = await jiti.import("../src/planls.ts");

test("clean: no escape, control or bidi character reaches the terminal", () => {
	const cases = [
		["plain", "plain"],
		["red \u001b[31mtext\u001b[0m", "red text"],
		["title \u001b]0;pwned\u0007 ok", "title  ok"],
		["two\nlines\tand\rmore", "two lines and more"],
		["sep\u2028arated", "sep arated"],
		["\u202eevil\u202c order", "evil order"],
		["lone \u001bX escape", "lone  escape"],
		["c1 \u009b31m csi", "c1  31m csi"],
	];
	for (const [input, want] of cases) assert.equal(view.clean(input), want, JSON.stringify(input));
});

test("widgetLines: header, items in plan order, own todos; nothing without tasks or plan", () => {
	const t = (id, status, extra = {}) => ({ id, subject: `task ${id}`, status, ...extra });
	const plan = (id, status, order) => t(id, status, { source: "plan", planOrder: order });
	const cases = [
		{ name: "empty", d: { tasks: [] }, want: undefined },
		{ name: "own todos only", d: { tasks: [t(1, "pending"), t(2, "completed"), t(3, "deleted")] }, want: ["planls: no approved plan", "todos: 1/2 open"] },
		{
			name: "plan in plan order, deleted items not counted",
			d: { plan: { id: "x", title: "T" }, tasks: [plan(5, "pending", 2), plan(4, "completed", 1), plan(6, "deleted", 3), plan(7, "in_progress", 4)] },
			want: ["planls: T -- 2/3 plan items open", "  [completed] #4 task 4", "  [pending] #5 task 5", "  [in_progress] #7 task 7"],
		},
	];
	for (const c of cases) assert.deepEqual(view.widgetLines(c.d), c.want, c.name);
	const many = { plan: { id: "x", title: "Big" }, tasks: Array.from({ length: 15 }, (_, i) => plan(i + 1, "pending", i + 1)) };
	const lines = view.widgetLines(many);
	assert.equal(lines.length, 1 + 12 + 1);
	assert.equal(lines.at(-1), "  ... 3 more (todo list shows all)");
});

test("modeFromEvent and modeFromBranch: the latest Plan-mode mark wins", () => {
	assert.equal(mode.modeFromEvent({ version: 1, source: "pi-plan-mode", mode: "plan", state: "active", active: true }), true);
	assert.equal(mode.modeFromEvent({ version: 1, source: "pi-plan-mode", mode: "plan", state: "off", active: false }), false);
	assert.equal(mode.modeFromEvent({ version: 2, source: "pi-plan-mode", mode: "plan", active: true }), undefined);
	assert.equal(mode.modeFromEvent("plan"), undefined);
	const transition = (m) => ({ type: "custom_message", customType: "plan-mode-transition", details: { version: 1, mode: m } });
	const entry = (active) => ({ type: "custom", customType: "plan-mode", data: { active } });
	const cases = [
		[[], undefined],
		[[{ type: "message" }], undefined],
		[[transition("plan")], true],
		[[transition("plan"), transition("normal")], false],
		[[entry(true)], true],
		[[entry(true), { type: "message" }, entry(false)], false],
		[[transition("normal"), entry(true)], true],
		[[entry(true), transition("normal")], false],
	];
	for (const [branch, want] of cases) assert.equal(mode.modeFromBranch(branch), want, JSON.stringify(branch));
});

test("isPlanApproved and approvalFromMessage read the two approval shapes", () => {
	assert.equal(approval.isPlanApproved({ version: 1, planId: "p", plan: "# T", sessionId: "s" }), true);
	for (const bad of [null, {}, { version: 2, planId: "p", plan: "", sessionId: "s" }, { version: 1, planId: "", plan: "", sessionId: "s" }, { version: 1, planId: "p", plan: 3, sessionId: "s" }])
		assert.equal(approval.isPlanApproved(bad), false, JSON.stringify(bad));
	const framed = (plan) => `[APPROVED PLAN]\n\nThe following plan has been approved and is now being executed:\n\n${plan}\n\nFollow this plan during execution.`;
	assert.deepEqual(approval.approvalFromMessage({ role: "custom", customType: "plan-approved", content: framed("# T\n- a\n"), timestamp: 42 }, "s1"), {
		version: 1,
		planId: "pi-plan-mode-0.2:42",
		plan: "# T\n- a\n",
		sessionId: "s1",
	});
	assert.equal(approval.approvalFromMessage({ role: "custom", customType: "plan-approved", content: "something else" }, "s"), undefined);
	assert.equal(approval.approvalFromMessage({ role: "user", customType: "plan-approved", content: framed("x") }, "s"), undefined);
});

test("remindedSinceLastPrompt: one reminder per user prompt", () => {
	const user = { role: "user" };
	const reminder = { role: "custom", customType: "planls-plan-reminder" };
	const other = { role: "custom", customType: "something" };
	const cases = [
		[[], false],
		[[user], false],
		[[user, reminder], true],
		[[user, reminder, { role: "assistant" }], true],
		[[reminder, user], false],
		[[user, other], false],
	];
	for (const [msgs, want] of cases) assert.equal(ext.remindedSinceLastPrompt(msgs), want, JSON.stringify(msgs));
});

test("guidance: the file's valid overrides, warnings for the rest", (t) => {
	const dir = mkdtempSync(join(tmpdir(), "planls-pi-config-"));
	t.after(() => rmSync(dir, { recursive: true, force: true }));
	const saved = process.env.XDG_CONFIG_HOME;
	t.after(() => (saved === undefined ? delete process.env.XDG_CONFIG_HOME : (process.env.XDG_CONFIG_HOME = saved)));
	process.env.XDG_CONFIG_HOME = dir;
	const defaults = { promptSnippet: "S", promptGuidelines: ["G"] };
	const write = (text) => {
		mkdirSync(join(dir, "planls-pi"), { recursive: true });
		writeFileSync(join(dir, "planls-pi", "config.json"), text);
	};
	const run = () => {
		const warnings = [];
		return { got: config.guidance(defaults, (w) => warnings.push(w)), warnings };
	};
	assert.deepEqual(run(), { got: defaults, warnings: [] }, "no file");
	write('{"guidance":{"promptSnippet":"X","promptGuidelines":["a","b"]}}');
	assert.deepEqual(run(), { got: { promptSnippet: "X", promptGuidelines: ["a", "b"] }, warnings: [] });
	write('{"guidance":{"promptSnippet":" ","promptGuidelines":[]}}');
	const r = run();
	assert.deepEqual(r.got, defaults);
	assert.equal(r.warnings.length, 2);
	write("{not json");
	assert.match(run().warnings[0], /is not JSON/);
	write("[1,2]");
	assert.deepEqual(run(), { got: defaults, warnings: [] });
});

test("failure and notices read planls's stderr", () => {
	const stderr = "Error: no planls root found: somewhere\nhint: run inside a git repository\n";
	assert.deepEqual(planls.failure("list", { action: "list" }, stderr), {
		content: [{ type: "text", text: "Error: no planls root found: somewhere" }],
		details: { action: "list", params: { action: "list" }, tasks: [], error: "no planls root found: somewhere" },
	});
	assert.deepEqual(planls.notices("warning: Plan item deferred: #2 x -- y\nother line\ninfo: fine\nnotice: wrote .gitattributes\n"), [
		{ level: "warning", text: "Plan item deferred: #2 x -- y" },
		{ level: "info", text: "fine" },
		{ level: "info", text: "wrote .gitattributes" },
	]);
	assert.equal(planls.actionOf({ ops: [] }), "batch");
	assert.equal(planls.actionOf({ action: "get" }), "get");
});

test("findRoot: planls's rule ($PLANLS_ROOT, else the nearest .planls/ or .git)", (t) => {
	const dir = mkdtempSync(join(tmpdir(), "planls-pi-root-"));
	t.after(() => rmSync(dir, { recursive: true, force: true }));
	const saved = process.env.PLANLS_ROOT;
	t.after(() => (saved === undefined ? delete process.env.PLANLS_ROOT : (process.env.PLANLS_ROOT = saved)));
	delete process.env.PLANLS_ROOT;
	mkdirSync(join(dir, "repo", ".git"), { recursive: true });
	mkdirSync(join(dir, "repo", "sub", "deep"), { recursive: true });
	mkdirSync(join(dir, "repo", "sub", ".planls"), { recursive: true });
	mkdirSync(join(dir, "worktree"), { recursive: true });
	writeFileSync(join(dir, "worktree", ".git"), "gitdir: /elsewhere\n"); // a git worktree's .git is a file
	mkdirSync(join(dir, "none"));
	assert.equal(planls.findRoot(join(dir, "repo")), join(dir, "repo"));
	assert.equal(planls.findRoot(join(dir, "repo", "sub", "deep")), join(dir, "repo", "sub"));
	assert.equal(planls.findRoot(join(dir, "worktree")), join(dir, "worktree"));
	if (planls.findRoot(tmpdir()) === undefined) assert.equal(planls.findRoot(join(dir, "none")), undefined);
	process.env.PLANLS_ROOT = join(dir, "repo");
	assert.equal(planls.findRoot(join(dir, "none")), join(dir, "repo"));
});
