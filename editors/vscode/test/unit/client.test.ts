import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { installVscodeStub } from './vscodeStub';

interface FeatureHolder {
	_features: { registrationType?: { method?: string } }[];
}

function methods(client: unknown): string[] {
	return (client as FeatureHolder)._features.map((f) => {
		try {
			return f.registrationType?.method ?? '';
		} catch {
			return '';
		}
	});
}

test('the planls client leaves server command ids to the extension', () => {
	installVscodeStub();
	// Loaded after the stub: both modules import vscode at load time.
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { PlanLanguageClient } = require('../../src/client');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { LanguageClient } = require('vscode-languageclient/node');
	const stock = new LanguageClient('planls', 'planls', { command: 'planls' }, {});
	const ours = new PlanLanguageClient('planls', 'planls', { command: 'planls' }, {});
	assert.ok(methods(stock).includes('workspace/executeCommand'), 'the stock client registers server commands (else this test proves nothing)');
	assert.ok(!methods(ours).includes('workspace/executeCommand'));
	// Everything else (diagnostics, code actions, configuration, folders) stays.
	assert.deepEqual(
		methods(ours),
		methods(stock).filter((m) => m !== 'workspace/executeCommand'),
	);
});

function manager(vscode: Record<string, any>, setting: string, folders: string[]) {
	vscode.workspace.workspaceFolders = folders.map((f) => ({ uri: { fsPath: f, toString: () => `file://${f}` } }));
	vscode.workspace.getConfiguration = () => ({ get: (k: string) => (k === 'path' ? setting : undefined) });
	const shown: unknown[][] = [];
	vscode.window.showErrorMessage = async (...args: unknown[]) => {
		shown.push(args);
		return undefined;
	};
	vscode.commands.executeCommand = async () => undefined;
	const lines: string[] = [];
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { ServerManager } = require('../../src/client') as typeof import('../../src/client');
	const m = new ServerManager({ appendLine: (s: string) => lines.push(s) } as never);
	const states: string[] = [];
	m.onDidChangeServerState((s) => states.push(s));
	return { m, shown, lines, states };
}

test('a planls.path that is not executable is reported with the install command, and nothing starts', async () => {
	const vscode = installVscodeStub();
	const { badSettingMessage } = await import('../../src/serverPath');
	const { m, shown, lines, states } = manager(vscode, '/nonexistent/planls', ['/work/proj']);
	await m.start();
	assert.equal(m.state, 'error');
	assert.deepEqual(states, ['error']);
	assert.ok(lines.includes(`[planls] ${badSettingMessage('/nonexistent/planls')}`));
	assert.deepEqual(shown, [[badSettingMessage('/nonexistent/planls'), 'Copy Install Command', 'Open Settings']]);
	await assert.rejects(m.request('planls/plan', {}), /not running/);
	await assert.rejects(m.executeCommand('planls.start', { id: 1 }), /not running/);
	// Restarting with the same setting fails the same way, and never throws.
	await m.restart();
	assert.equal(m.state, 'error');
	assert.equal(shown.length, 2);
});

test('a window without folders does not start a server', async () => {
	const vscode = installVscodeStub();
	const { m, shown, states } = manager(vscode, '', []);
	await m.start();
	assert.equal(m.state, 'noFolder');
	assert.deepEqual(states, ['noFolder']);
	assert.deepEqual(shown, []);
});
