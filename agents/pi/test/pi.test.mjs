// End-to-end: the pinned pi loads this package (installed with `pi install
// <path>`), a scripted model on 127.0.0.1 drives the todo tool, and planls
// answers. Checks the tool text byte for byte, the state file, `planls check`,
// plan approval from pi-plan-mode's event, the reminder, and the plan view.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startFakeModel } from "./fake-model.mjs";
import { startPi } from "./rpc.mjs";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(dirname(pkg));
const piBin = join(pkg, "node_modules", ".bin", "pi");

const PLAN = "# Demo\n\n## Work\n- Write the parser\n- Ship it\n";
const REFUSED =
	"Error: evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open";

let tmp, proj, planls, model, pi, env;

function sh(args, opts = {}) {
	return spawnSync(planls, args, { cwd: proj, encoding: "utf8", ...opts });
}
const state = () => JSON.parse(readFileSync(join(proj, ".planls", "state.json"), "utf8"));
const task = (id) => state().tasks.find((t) => t.id === id);
const hookReason = () => JSON.parse(sh(["check", "--hook", "claude"], { input: "{}" }).stdout || "{}").reason;

/** todoCalls are the todo results of a prompt's records, in order. */
const results = (records) => records.filter((r) => r.type === "tool_execution_end" && r.toolName === "todo").map((r) => r.result);
const text = (result) => result.content.map((c) => c.text).join("\n");
/** remindersIn counts the model requests whose last message is planls's reminder. */
const remindersSince = (n) =>
	model.requests.slice(n).filter((q) => {
		const last = q.messages.at(-1);
		const body = typeof last.content === "string" ? last.content : last.content?.map((c) => c.text).join("");
		return last.role === "user" && body?.startsWith("Plan check: ");
	});

/** marks are the prompts and commands sent, by the index of the first record each produced. */
const marks = [];

/** transcript renders the whole session in the order pi reported it. */
function transcript() {
	const out = [];
	const indent = (text, first, rest) => String(text).split("\n").map((l, i) => `${i ? rest : first}${l}`);
	pi.events.forEach((r, i) => {
		for (const m of marks) if (m.at === i) out.push(`> ${m.label}`);
		if (r.type === "tool_execution_start") out.push(`  model calls ${r.toolName} ${JSON.stringify(r.args)}`);
		if (r.type === "tool_execution_end") out.push(...indent(text(r.result), "  ← ", "    "));
		if (r.type === "entry_appended" && r.entry.type === "custom_message" && r.entry.customType === "planls-plan-reminder")
			out.push("  [planls reminder, hidden from the user, sent to the model:]", ...indent(r.entry.content, "    ", "    "));
		if (r.type === "message_end" && r.message.role === "assistant") {
			const said = r.message.content.filter((c) => c.type === "text").map((c) => c.text).join("");
			if (said) out.push(`  model says: ${said}`);
		}
		if (r.type === "extension_ui_request" && r.method === "notify") out.push(...indent(r.message, `  [notify ${r.notifyType}] `, "    "));
		if (r.type === "extension_ui_request" && r.method === "setWidget" && r.widgetLines) out.push(...indent(r.widgetLines.join("\n"), "  [plan view] ", "              "));
	});
	return out.join("\n").replaceAll(tmp, "$TMP");
}

/** slash runs a slash command (no model turn). */
async function slash(command) {
	marks.push({ at: pi.events.length, label: command });
	await pi.prompt(command);
}

async function prompt(message, ...steps) {
	model.reply(...steps);
	marks.push({ at: pi.events.length, label: message });
	const records = await pi.prompt(message);
	assert.equal(model.pending(), 0, `the model script for "${message}" was not used up`);
	return records;
}

before(async () => {
	tmp = mkdtempSync(join(tmpdir(), "planls-pi-"));
	proj = join(tmp, "proj");
	const agent = join(tmp, "agent");
	mkdirSync(proj);
	mkdirSync(agent);
	execFileSync("git", ["init", "-q", proj]);
	planls = process.env.PLANLS_BIN;
	if (!planls) {
		planls = join(tmp, "planls");
		execFileSync("go", ["build", "-o", planls, "./cmd/planls"], { cwd: repo, stdio: "inherit" });
	}
	model = await startFakeModel();
	model.writeModels(agent);
	writeFileSync(join(tmp, "plan.md"), PLAN);
	writeFileSync(join(tmp, "other-plan.md"), "# Other\n\n- Something else\n");
	env = { ...process.env, HOME: tmp, XDG_CONFIG_HOME: join(tmp, "xdg"), PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1", PLANLS_BIN: planls };
	delete env.PLANLS_ROOT;
	delete env.PLANLS_PI_PLAN_FILE;
	// The README's install step, from a path.
	execFileSync(piBin, ["install", pkg], { env, encoding: "utf8" });
	const args = ["--provider", "fake", "--model", "scripted", "--session-dir", join(tmp, "sessions"), "-e", join(pkg, "test", "fixtures", "plan-mode-stub.ts")];
	pi = startPi({ bin: piBin, args, cwd: proj, env });
});

after(async () => {
	if (process.env.PI_TRANSCRIPT && pi) writeFileSync(process.env.PI_TRANSCRIPT, `${transcript()}\n`);
	await pi?.stop();
	await model?.close();
	if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test("no reminder while no plan is approved", async () => {
	const n = model.requests.length;
	await prompt("hello", { text: "Hi." });
	assert.equal(model.requests.length - n, 1, "one request: the run ended without a reminder");
});

test("the tool is registered with the seed's schema and the guidance", () => {
	const req = model.requests.at(-1);
	const tool = req.tools.find((t) => t.function.name === "todo");
	assert.ok(tool, "todo is offered to the model");
	const props = tool.function.parameters.properties;
	for (const f of ["action", "subject", "blockedBy", "description", "activeForm", "owner", "metadata", "evidence", "reason", "addBlockedBy", "removeBlockedBy", "id", "status", "includeDeleted", "ops"])
		assert.ok(props[f], `parameter ${f}`);
	assert.deepEqual(props.action.enum, ["create", "update", "list", "get", "delete", "clear"]);
	assert.deepEqual(props.status.enum, ["pending", "in_progress", "completed", "deferred", "deleted"]);
	const system = req.messages[0].content;
	assert.match(system, /- todo: Track plan items and todos/);
	assert.match(system, /Completing a `todo` task needs evidence/);
});

test("pi-plan-mode's approval becomes the project's approved plan; the same planId again is a no-op", async () => {
	let from = pi.events.length;
	await slash(`/stub-approve ${join(tmp, "plan.md")} plan-1`);
	const note = await pi.waitFor((r) => r.type === "extension_ui_request" && r.method === "notify", { from, what: "approval notice" });
	assert.equal(note.message, 'planls: PLAN.md: Approved plan "Demo": 2 plan items (0 kept, 2 new, 0 removed)');
	assert.equal(readFileSync(join(proj, "PLAN.md"), "utf8"), PLAN);
	const st = state();
	assert.equal(st.plan.title, "Demo");
	assert.equal(st.plan.path, "PLAN.md");
	assert.deepEqual(st.tasks.map((t) => [t.id, t.subject, t.status, t.source]), [
		[1, "Write the parser", "pending", "plan"],
		[2, "Ship it", "pending", "plan"],
	]);
	const widget = await pi.waitFor((r) => r.method === "setWidget" && r.widgetLines?.[0]?.startsWith("planls: Demo"), { from, what: "plan view" });
	assert.deepEqual(widget.widgetLines, ["planls: Demo -- 2/2 plan items open", "  [pending] #1 Write the parser", "  [pending] #2 Ship it"]);

	const revision = st.revision;
	from = pi.events.length;
	await slash(`/stub-approve ${join(tmp, "other-plan.md")} plan-1`);
	// Approvals apply in order, so once this later one is done, so is the repeat.
	await slash(`/stub-approve ${join(tmp, "plan.md")} plan-1b`);
	const again = await pi.waitFor((r) => r.method === "notify", { from, what: "the later approval's notice" });
	assert.equal(again.message, 'planls: PLAN.md: Plan "Demo" is already approved: 2 plan items');
	assert.equal(state().revision, revision, "state unchanged");
	assert.equal(readFileSync(join(proj, "PLAN.md"), "utf8"), PLAN, "PLAN.md unchanged");
	await slash("/todos");
	await pi.waitFor((r) => r.method === "notify" && r.message.startsWith("Plan: Demo"), { from, what: "/todos" });
});

test("an item is refused without evidence and completed with it; planls's text, byte for byte", async () => {
	const n = model.requests.length;
	const records = await prompt(
		"Implement the plan.",
		{ calls: [{ name: "todo", args: { action: "list" } }] },
		{ calls: [{ name: "todo", args: { action: "create", subject: "Follow up" } }] },
		{ calls: [{ name: "todo", args: { action: "update", id: 1, status: "in_progress", activeForm: "writing the parser" } }] },
		{ calls: [{ name: "todo", args: { action: "update", id: 1, status: "completed" } }] },
		{ calls: [{ name: "todo", args: { action: "update", id: 1, status: "completed", evidence: "go test ./...: ok" } }] },
		{ text: "The parser is written." },
		// the reminder's extra turn
		{ text: "#2 Ship it is still open; I will not call the work done." },
	);
	const got = results(records);
	assert.deepEqual(got.map(text), [
		"Plan: Demo -- 2/2 plan items open\n[pending] #1 Write the parser [plan: Work]\n[pending] #2 Ship it [plan: Work]",
		"Created #3: Follow up (pending)",
		"Updated #1 (pending → in_progress)",
		REFUSED,
		"Updated #1 (in_progress → completed)",
	]);
	// details: the seed's snapshot shape
	for (const r of got) {
		const d = r.details;
		assert.equal(typeof d.action, "string");
		assert.equal(typeof d.params, "object");
		assert.ok(Array.isArray(d.tasks));
		assert.equal(typeof d.nextId, "number");
		assert.deepEqual(Object.keys(d.plan).filter((k) => k === "id" || k === "title"), ["id", "title"]);
		assert.equal(d.plan.title, "Demo");
	}
	assert.equal(got[3].details.error, REFUSED.slice("Error: ".length));
	assert.equal(got[4].details.tasks.find((t) => t.id === 1).evidence, "go test ./...: ok");
	assert.equal(got[0].details.action, "list");
	// the same text planls's CLI gives now
	assert.equal(sh(["todo", "get", "1"]).stdout.trimEnd().split("\n")[0], "#1 [completed] Write the parser");

	// the state file and planls check
	assert.equal(task(1).status, "completed");
	assert.equal(task(1).evidence, "go test ./...: ok");
	assert.equal(task(3).subject, "Follow up");
	const check = sh(["check"]);
	assert.equal(check.status, 1);
	assert.equal(check.stdout, "PLAN.md:5:1: open plan item #2 (pending): Ship it\n");

	// one reminder, planls's text, then the run settles
	const reminders = remindersSince(n);
	assert.equal(reminders.length, 1, "exactly one reminder for this prompt");
	const last = reminders[0].messages.at(-1);
	const body = typeof last.content === "string" ? last.content : last.content.map((c) => c.text).join("");
	assert.equal(body, hookReason());
	assert.match(body, /^Plan check: the approved plan "Demo" still has 1\/2 items open\./);
	assert.equal(model.requests.length - n, 7, "six scripted turns and one reminder turn");
});

test("the plan view follows another writer's change", async () => {
	const from = pi.events.length;
	marks.push({ at: from, label: "(in a shell, outside pi) planls todo start 2" });
	const cli = sh(["todo", "start", "2"]);
	assert.equal(cli.status, 0, cli.stderr);
	const widget = await pi.waitFor((r) => r.method === "setWidget" && r.widgetLines?.some((l) => l.includes("[in_progress] #2")), {
		from,
		what: "the view after a CLI change",
	});
	assert.deepEqual(widget.widgetLines, [
		"planls: Demo -- 1/2 plan items open",
		"  [completed] #1 Write the parser",
		"  [in_progress] #2 Ship it",
		"todos: 1/1 open",
	]);
});

test("no reminder in Plan mode; one again after it", async () => {
	await slash("/stub-plan-mode on");
	let n = model.requests.length;
	await prompt("Let's plan the next step.", { text: "Here is a plan." });
	assert.equal(remindersSince(n).length, 0, "no reminder in Plan mode");
	assert.equal(model.requests.length - n, 1);

	await slash("/stub-plan-mode off");
	n = model.requests.length;
	await prompt("Carry on.", { text: "Working." }, { text: "Still open: #2." });
	assert.equal(remindersSince(n).length, 1, "one reminder per prompt");
	assert.equal(model.requests.length - n, 2);
});

test("a deferred item ends the reminders", async () => {
	const n = model.requests.length;
	const records = await prompt(
		"Ship it later.",
		{ calls: [{ name: "todo", args: { action: "update", id: 2, status: "deferred", reason: "needs a design call" } }] },
		{ text: "Deferred #2." },
	);
	assert.deepEqual(results(records).map(text), ["Updated #2 (in_progress → deferred). Tell the user this plan item is descoped and why: needs a design call"]);
	const notice = records.find((r) => r.method === "notify");
	assert.equal(notice?.message, "Plan item deferred: #2 Ship it -- needs a design call");
	assert.equal(notice?.notifyType, "warning");
	assert.equal(remindersSince(n).length, 0);
	assert.equal(model.requests.length - n, 2);
	assert.equal(sh(["check"]).status, 0, "planls check: nothing open");
});

test("an approval never overwrites plan text nobody approved", async () => {
	const edited = `${PLAN}- An idea not yet approved\n`;
	writeFileSync(join(proj, "PLAN.md"), edited);
	const from = pi.events.length;
	await slash(`/stub-approve ${join(tmp, "other-plan.md")} plan-2`);
	const warned = await pi.waitFor((r) => r.method === "notify" && r.notifyType === "warning", { from, what: "the kept-file warning" });
	assert.equal(warned.message, "planls: PLAN.md has text nobody approved, so it was left as is; the approved plan is .planls/pi-plans/plan-2.md");
	const approved = await pi.waitFor((r) => r.method === "notify" && r.notifyType === "info", { from, what: "the approval notice" });
	assert.deepEqual(approved.message.split("\n"), [
		'planls: .planls/pi-plans/plan-2.md: Approved plan "Other": 1 plan item (0 kept, 1 new, 2 removed)',
		'note: #1 "Write the parser" (completed; its evidence stays in the tombstone) left the approved plan (PLAN.md was replaced by .planls/pi-plans/plan-2.md)',
		'note: #2 "Ship it" (deferred; its reason stays in the tombstone) left the approved plan (PLAN.md was replaced by .planls/pi-plans/plan-2.md)',
	]);
	assert.equal(readFileSync(join(proj, "PLAN.md"), "utf8"), edited, "PLAN.md kept as the user left it");
	assert.equal(readFileSync(join(proj, ".planls", "pi-plans", "plan-2.md"), "utf8"), readFileSync(join(tmp, "other-plan.md"), "utf8"));
	const st = state();
	assert.equal(st.plan.title, "Other");
	assert.equal(st.plan.path, ".planls/pi-plans/plan-2.md");
	const open = st.tasks.find((t) => t.source === "plan" && t.status === "pending");
	const check = sh(["check"]);
	assert.equal(check.status, 1);
	assert.equal(check.stdout, `.planls/pi-plans/plan-2.md:3:1: open plan item #${open.id} (pending): Something else\n`);
});

test("a plan planls refuses leaves every file as it was", async () => {
	writeFileSync(join(tmp, "empty-plan.md"), "# Empty\n");
	const before = state();
	const from = pi.events.length;
	await slash(`/stub-approve ${join(tmp, "empty-plan.md")} plan-3`);
	const refused = await pi.waitFor((r) => r.method === "notify" && r.notifyType === "error", { from, what: "the refusal" });
	assert.equal(
		refused.message,
		"planls: Error: plan file .planls/pi-plans/plan-3.md has no plan items; approving it would remove all 1 plan item of the approved plan: fix the file, or force the approval (planls approve --force)",
	);
	assert.equal(existsSync(join(proj, ".planls", "pi-plans", "plan-3.md")), false, "the file approval created is gone");
	assert.equal(state().revision, before.revision);
	assert.equal(state().plan.path, ".planls/pi-plans/plan-2.md");
});
