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

test('the planls client leaves server command ids to the extension (B27)', () => {
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
