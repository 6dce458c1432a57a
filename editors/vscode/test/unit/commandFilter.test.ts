import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { registersServerCommands } from '../../src/commandFilter';

test('registersServerCommands singles out the execute-command feature', () => {
	const rows: [string, unknown, boolean][] = [
		['execute command feature', { registrationType: { method: 'workspace/executeCommand' } }, true],
		['another dynamic feature', { registrationType: { method: 'textDocument/codeAction' } }, false],
		['static feature', { fillClientCapabilities() {} }, false],
		['null', null, false],
		['string', 'workspace/executeCommand', false],
		[
			'throwing getter',
			Object.defineProperty({}, 'registrationType', {
				get() {
					throw new Error('not ready');
				},
			}),
			false,
		],
	];
	for (const [name, feature, want] of rows) {
		assert.equal(registersServerCommands(feature), want, name);
	}
});
