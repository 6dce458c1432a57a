import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodePlan, PlanResult } from '../../src/protocol';
import { readJSON } from './helpers';
import { installVscodeStub } from './vscodeStub';

const vscode = installVscodeStub();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { registerCommands } = require('../../src/commands') as typeof import('../../src/commands');

interface Calls {
	sent: [string, Record<string, unknown>][];
	prompts: Record<string, unknown>[];
	errors: string[];
	refreshes: number;
}

/** setup registers the commands against fakes; answer is what the input box returns (undefined = Escape). */
function setup(plan: PlanResult, answer: string | undefined, reply: unknown = { content: [{ type: 'text', text: 'ok' }], details: {} }) {
	const handlers = new Map<string, (...a: unknown[]) => unknown>();
	vscode.commands.registerCommand = (id: string, fn: (...a: unknown[]) => unknown) => {
		handlers.set(id, fn);
		return { dispose() {} };
	};
	const calls: Calls = { sent: [], prompts: [], errors: [], refreshes: 0 };
	vscode.window.showInputBox = async (opts: Record<string, unknown>) => {
		calls.prompts.push(opts);
		return answer;
	};
	vscode.window.showErrorMessage = async (msg: string) => {
		calls.errors.push(msg);
		return undefined;
	};
	vscode.window.setStatusBarMessage = () => ({ dispose() {} });
	vscode.Uri.parse = (s: string) => ({ scheme: new URL(s).protocol.replace(':', ''), fsPath: fileURLToPath(s) });
	const server = {
		async executeCommand(command: string, arg: Record<string, unknown>) {
			calls.sent.push([command, arg]);
			return reply;
		},
	};
	const plans = {
		current: [plan],
		planFor: () => plan,
		subjectOf: (_u: string | undefined, id: number) => plan.groups.flatMap((g) => g.items).find((i) => i.id === id)?.subject ?? '',
		refresh: async () => {
			calls.refreshes++;
		},
	};
	registerCommands({ server: server as never, plans: plans as never, output: { appendLine() {}, show() {} } as never });
	return { handlers, calls };
}

function repoWithPlan(t: { after: (fn: () => void) => void }): { plan: PlanResult; head: string } {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planls-cmd-'));
	t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
	fs.writeFileSync(path.join(dir, 'PLAN.md'), '# P\n- a\n');
	const git = (...a: string[]) =>
		execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...a], { cwd: dir, encoding: 'utf8' }).trim();
	git('init', '-q');
	git('add', 'PLAN.md');
	git('commit', '-q', '-m', 'p');
	const plan = decodePlan(readJSON('plan-basic.json'));
	assert.ok(plan);
	plan.root = pathToFileURL(dir).toString();
	plan.planUri = pathToFileURL(path.join(dir, 'PLAN.md')).toString();
	return { plan, head: git('rev-parse', '--short', 'HEAD') };
}

test('Complete from a code action asks for evidence, offers the commit, and sends the answer', async (t) => {
	const { plan, head } = repoWithPlan(t);
	const { handlers, calls } = setup(plan, '  PR #12  ');
	await handlers.get('planls.complete')!({ id: 9, uri: plan.planUri });
	assert.equal(calls.prompts.length, 1);
	assert.equal(calls.prompts[0].title, 'Complete #9: Clients already retry on 429');
	assert.equal(calls.prompts[0].value, `commit ${head}`);
	assert.equal(calls.prompts[0].ignoreFocusOut, true);
	assert.deepEqual(calls.sent, [['planls.complete', { id: 9, uri: plan.planUri, evidence: 'PR #12' }]]);
	assert.equal(calls.refreshes, 1);
});

test('Escape in the prompt sends nothing', async (t) => {
	const { plan } = repoWithPlan(t);
	const { handlers, calls } = setup(plan, undefined);
	await handlers.get('planls.defer')!({ id: 9, uri: plan.planUri });
	await handlers.get('planls.complete')!({ id: 9, uri: plan.planUri });
	assert.equal(calls.prompts.length, 2);
	assert.equal(calls.prompts[0].title, 'Defer #9: Clients already retry on 429');
	assert.deepEqual(calls.sent, []);
});

test('a sidebar node sends its item; Start needs no prompt; given evidence is not asked again', async (t) => {
	const { plan } = repoWithPlan(t);
	const { handlers, calls } = setup(plan, 'unused');
	await handlers.get('planls.start')!({ id: 'item:x#5', ref: { id: 5, uri: plan.planUri, subject: 'S' } });
	await handlers.get('planls.complete')!({ id: 5, uri: plan.planUri, evidence: 'from another client' });
	assert.deepEqual(calls.prompts, []);
	assert.deepEqual(calls.sent, [
		['planls.start', { id: 5, uri: plan.planUri }],
		['planls.complete', { id: 5, uri: plan.planUri, evidence: 'from another client' }],
	]);
});

test('the welcome button approves the waiting plan; a rejected call is shown as an error', async (t) => {
	const { plan } = repoWithPlan(t);
	plan.approved = false;
	const rejected = { content: [{ type: 'text', text: 'Error: the plan file is empty' }], details: { error: 'the plan file is empty' } };
	const { handlers, calls } = setup(plan, undefined, rejected);
	await handlers.get('planls.approve')!();
	assert.deepEqual(calls.sent, [['planls.approve', { uri: plan.planUri }]]);
	assert.deepEqual(calls.errors, ['planls: Error: the plan file is empty']);
});
