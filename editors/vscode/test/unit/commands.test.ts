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
	/** Lines the server was asked code actions for. */
	asked: number[];
}

/** setup registers the commands against fakes; answer is what the input box returns (undefined = Escape). */
function setup(plan: PlanResult, answer: string | undefined, reply: unknown = { content: [{ type: 'text', text: 'ok' }], details: {} }, offered: unknown[] = []) {
	const handlers = new Map<string, (...a: unknown[]) => unknown>();
	vscode.commands.registerCommand = (id: string, fn: (...a: unknown[]) => unknown) => {
		handlers.set(id, fn);
		return { dispose() {} };
	};
	const calls: Calls = { sent: [], prompts: [], errors: [], refreshes: 0, asked: [] };
	vscode.window.showInputBox = async (opts: Record<string, unknown>) => {
		calls.prompts.push(opts);
		return answer;
	};
	vscode.window.showErrorMessage = async (msg: string) => {
		calls.errors.push(msg);
		return undefined;
	};
	vscode.window.setStatusBarMessage = () => ({ dispose() {} });
	// The server's code actions on the item's line: what it offers as evidence.
	vscode.commands.executeCommand = async (id: string, _uri: unknown, range: { startLine: number }) => {
		assert.equal(id, 'vscode.executeCodeActionProvider');
		calls.asked.push(range.startLine);
		return offered;
	};
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
		statusOf: (_u: string | undefined, id: number) => plan.groups.flatMap((g) => g.items).find((i) => i.id === id)?.status,
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

test('Complete from a code action asks for evidence, offers what the server offers, and sends the answer', async (t) => {
	const { plan } = repoWithPlan(t);
	const item = plan.groups.flatMap((g) => g.items).find((i) => i.id === 9)!;
	const offered = [
		{ title: 'Complete #8 with x', command: { command: 'planls.complete', title: 'x', arguments: [{ id: 8, evidence: 'not this item' }] } },
		{ title: 'Complete #9…', command: { command: 'planls.complete', title: 'Complete #9…', arguments: [{ id: 9 }] } },
		{ title: 'Complete #9 with 9eb5e9f Add it', command: { command: 'planls.complete', title: 't', arguments: [{ id: 9, evidence: '9eb5e9f Add it' }] } },
	];
	const { handlers, calls } = setup(plan, '  PR #12  ', undefined, offered);
	await handlers.get('planls.complete')!({ id: 9, uri: plan.planUri });
	assert.equal(calls.prompts.length, 1);
	assert.equal(calls.prompts[0].title, 'Complete #9: Clients already retry on 429');
	assert.deepEqual(calls.asked, [item.range!.start.line]);
	assert.equal(calls.prompts[0].value, '9eb5e9f Add it');
	assert.equal(calls.prompts[0].ignoreFocusOut, true);
	assert.deepEqual(calls.sent, [['planls.complete', { id: 9, uri: plan.planUri, evidence: 'PR #12' }]]);
	assert.equal(calls.refreshes, 1);
});

test('Complete offers no default when the server offers no commit (one that only adds PLAN.md proves nothing)', async (t) => {
	const { plan } = repoWithPlan(t);
	const { handlers, calls } = setup(plan, 'PR #12', undefined, [{ title: 'Complete #9…', command: { command: 'planls.complete', title: 'c', arguments: [{ id: 9 }] } }]);
	await handlers.get('planls.complete')!({ id: 9, uri: plan.planUri });
	assert.equal(calls.prompts[0].value, '');
});

test('Reopen of a completed item asks why; of a deferred one asks nothing', async (t) => {
	const { plan } = repoWithPlan(t);
	const items = plan.groups.flatMap((g) => g.items);
	const done = items.find((i) => i.status === 'completed')!;
	const deferred = items.find((i) => i.status === 'deferred')!;
	const { handlers, calls } = setup(plan, ' CI fails ');
	await handlers.get('planls.reopen')!({ id: done.id, uri: plan.planUri });
	await handlers.get('planls.reopen')!({ id: deferred.id, uri: plan.planUri });
	assert.equal(calls.prompts.length, 1);
	assert.equal(calls.prompts[0].title, `Reopen #${done.id}: ${done.subject}`);
	assert.deepEqual(calls.sent, [
		['planls.reopen', { id: done.id, uri: plan.planUri, reason: 'CI fails' }],
		['planls.reopen', { id: deferred.id, uri: plan.planUri }],
	]);
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
