// With the pi-plan-mode the npm registry has (0.2.4): its /plan:approve is
// turned into the project's approved plan, and its Plan mode (the
// `plan-mode` session entries) holds the reminder back.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startFakeModel } from "./fake-model.mjs";
import { startPi, tempProject } from "./rpc.mjs";

const pkg = dirname(dirname(fileURLToPath(import.meta.url)));
const piBin = join(pkg, "node_modules", ".bin", "pi");
const PLAN = "# Demo\n\n## Work\n- Write the parser\n- Ship it\n";

const lastUserText = (req) => {
	const last = req.messages.at(-1);
	if (last?.role !== "user") return "";
	return typeof last.content === "string" ? last.content : last.content.map((c) => c.text ?? "").join("");
};

test("pi-plan-mode 0.2.4: /plan:approve approves the plan; no reminder while planning", async (t) => {
	const planls = process.env.PLANLS_BIN;
	assert.ok(planls, "PLANLS_BIN is set (run.sh sets it)");
	const { tmp, agent, proj } = tempProject(t, "planls-pi-planmode-");
	// pi-plan-mode asks the model for a two-line summary of the plan whenever it draws its widget.
	const model = await startFakeModel({ aside: (req) => (lastUserText(req).startsWith("Summarize this plan") ? { text: "A demo plan." } : undefined) });
	t.after(() => model.close());
	model.writeModels(agent);
	const env = { ...process.env, HOME: tmp, XDG_CONFIG_HOME: join(tmp, "xdg"), PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1", PLANLS_BIN: planls };
	delete env.PLANLS_ROOT;
	delete env.PLANLS_PI_PLAN_FILE;
	execFileSync(piBin, ["install", pkg], { env });
	execFileSync(piBin, ["install", join(pkg, "node_modules", "pi-plan-mode")], { env });
	const pi = startPi({ bin: piBin, args: ["--provider", "fake", "--model", "scripted", "--session-dir", join(tmp, "sessions")], cwd: proj, env });
	t.after(() => pi.stop());
	const reminders = (from) => model.requests.slice(from).filter((q) => lastUserText(q).startsWith("Plan check: ")).length;
	const settle = async (command, ...steps) => {
		model.reply(...steps);
		const from = pi.events.length;
		await pi.prompt(command);
		await pi.waitFor((r) => r.type === "agent_settled", { from, what: `the run after ${command}` });
		assert.equal(model.pending(), 0, `the script for ${command} was used up`);
		return pi.events.slice(from);
	};

	await pi.prompt("/plan Demo");
	const plans = join(tmp, ".pi", "agent", "sessions", "plans");
	const [file] = readdirSync(plans);
	writeFileSync(join(plans, file), PLAN); // what the planning conversation would have written

	let n = model.requests.length;
	const records = await settle(
		"/plan:approve",
		{ calls: [{ name: "todo", args: { action: "list" } }] },
		{ text: "Starting." },
		{ text: "Both items are still open." },
	);
	const listed = records.filter((r) => r.type === "tool_execution_end" && r.toolName === "todo").map((r) => r.result.content[0].text);
	assert.deepEqual(listed, ["Plan: Demo -- 2/2 plan items open\n[pending] #1 Write the parser [plan: Work]\n[pending] #2 Ship it [plan: Work]"]);
	assert.equal(readFileSync(join(proj, "PLAN.md"), "utf8"), PLAN);
	const st = JSON.parse(readFileSync(join(proj, ".planls", "state.json"), "utf8"));
	assert.equal(st.plan.title, "Demo");
	assert.equal(reminders(n), 1, "the run was reminded once");

	await pi.prompt("/plan Next");
	n = model.requests.length;
	model.reply({ text: "Thinking about the next step." });
	await pi.prompt("What comes next?");
	assert.equal(model.pending(), 0);
	assert.equal(reminders(n), 0, "no reminder in Plan mode");
	assert.equal(model.requests.length - n, 1);

	await pi.prompt("/plan:cancel");
	n = model.requests.length;
	model.reply({ text: "Back to work." }, { text: "Still open." });
	await pi.prompt("Carry on.");
	assert.equal(model.pending(), 0);
	assert.equal(reminders(n), 1, "the reminder is back after Plan mode");
});
