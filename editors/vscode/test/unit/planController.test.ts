import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { readJSON } from './helpers';
import { installVscodeStub } from './vscodeStub';

const vscode = installVscodeStub();
// Loaded after the stub: both modules import vscode at load time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PlanController, viewContextKey } = require('../../src/planController') as typeof import('../../src/planController');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PlanTreeProvider } = require('../../src/treeView') as typeof import('../../src/treeView');

const contexts: Record<string, unknown> = {};
vscode.commands.executeCommand = async (cmd: string, key: string, value: unknown) => {
	if (cmd === 'setContext') {
		contexts[key] = value;
	}
};

function folder(uri: string) {
	return { uri: { toString: () => uri } };
}

class FakeStatus {
	text = '';
	tooltip = '';
	visible = false;
	show() {
		this.visible = true;
	}
	hide() {
		this.visible = false;
	}
}

class FakeServer {
	state = 'running';
	requests: string[] = [];
	constructor(private readonly replies: Record<string, unknown>) {}
	async request(method: string, params: { uri: string }): Promise<unknown> {
		this.requests.push(`${method} ${params.uri}`);
		await new Promise((r) => setTimeout(r, 5));
		const reply = this.replies[params.uri];
		if (reply instanceof Error) {
			throw reply;
		}
		return reply;
	}
}

const log: string[] = [];
const output = { appendLine: (s: string) => log.push(s) };

function setup(replies: Record<string, unknown>, folders: string[]) {
	vscode.workspace.workspaceFolders = folders.map(folder);
	const server = new FakeServer(replies);
	const tree = new PlanTreeProvider();
	const status = new FakeStatus();
	const c = new PlanController(server as never, tree, status as never, output as never);
	return { server, tree, status, c };
}

const basic = readJSON('plan-basic.json') as Record<string, unknown>;

test('refresh asks each folder for its plan and renders tree, status bar and welcome state', async () => {
	const { server, tree, status, c } = setup({ 'file:///work/proj': basic }, ['file:///work/proj']);
	await c.refresh();
	assert.deepEqual(server.requests, ['planls/plan file:///work/proj']);
	assert.equal(contexts[viewContextKey], 'ready');
	assert.equal(status.text, 'Plan 7/10 open');
	assert.ok(status.visible);
	assert.equal(tree.getChildren().length, 1);
	assert.equal(c.subjectOf('file:///work/proj/PLAN.md', 9), 'Clients already retry on 429');
	assert.equal(c.subjectOf(undefined, 42), '');
});

test('an unapproved plan empties the tree so the Approve plan welcome shows', async () => {
	const { tree, status, c } = setup({ 'file:///p': { ...basic, approved: false } }, ['file:///p']);
	await c.refresh();
	assert.equal(contexts[viewContextKey], 'notApproved');
	assert.deepEqual(tree.getChildren(), []);
	assert.equal(status.text, 'Plan not approved');
});

test('a folder whose request fails is logged and the others still show', async () => {
	const other = { ...basic, root: 'file:///b', planUri: 'file:///b/PLAN.md', open: 1, total: 1 };
	const { tree, status, c } = setup({ 'file:///a': new Error('boom'), 'file:///b': other }, ['file:///a', 'file:///b']);
	await c.refresh();
	assert.equal(tree.getChildren().length, 1);
	assert.equal(status.text, 'Plan 1/1 open');
	assert.ok(log.some((l) => l.includes('file:///a') && l.includes('boom')));
});

test('a server that is not running shows the matching welcome and hides the status bar', async () => {
	const { server, status, c } = setup({ 'file:///p': basic }, ['file:///p']);
	server.state = 'error';
	status.visible = true;
	await c.refresh();
	assert.deepEqual(server.requests, []);
	assert.equal(contexts[viewContextKey], 'serverError');
	assert.equal(status.visible, false);
});

test('refreshes requested while one runs fold into a single follow-up', async () => {
	const { server, c } = setup({ 'file:///p': basic }, ['file:///p']);
	const first = c.refresh();
	const rest = [c.refresh(), c.refresh(), c.refresh()];
	await Promise.all([first, ...rest]);
	assert.equal(server.requests.length, 2);
});

test('a stateChanged the shown plan already has is not asked again; a later one is', async () => {
	const { server, c } = setup({ 'file:///work/proj': { ...basic, revision: 7 } }, ['file:///work/proj']);
	await c.refresh();
	assert.equal(c.current[0].revision, 7);
	assert.equal(c.stateChanged({ root: 'file:///work/proj', revision: 7 }), false, 'the revision shown');
	assert.equal(c.stateChanged({ root: 'file:///work/proj', revision: 3 }), false, 'an older revision');
	assert.equal(c.stateChanged({ root: 'file:///other', revision: 1 }), true, 'another root');
	assert.equal(c.stateChanged({ root: 'file:///work/proj', revision: 7 }), true, 'while a refresh is due, it is folded in');
	c.dispose();
	await c.refresh();
	assert.equal(c.stateChanged({ root: 'file:///work/proj', revision: 8 }), true, 'a later revision');
	c.dispose();
	assert.equal(c.stateChanged(undefined), true, 'a change without params');
	c.dispose();
	assert.equal(server.requests.length, 2);
});
