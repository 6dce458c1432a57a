import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultSettings, serverSettings } from '../../src/settings';

test('serverSettings passes valid values and replaces invalid ones with defaults', () => {
	const rows: [string, Record<string, unknown>, unknown][] = [
		['empty config', {}, defaultSettings],
		['all set', { planFiles: ['docs/PLAN.md', 'PLAN.md'], severity: 'warning', fadeClosed: true }, { planFiles: ['docs/PLAN.md', 'PLAN.md'], severity: 'warning', fadeClosed: true }],
		['unknown severity', { severity: 'fatal' }, defaultSettings],
		['fade as string', { fadeClosed: 'true' }, defaultSettings],
		['planFiles not a list', { planFiles: 'PLAN.md' }, defaultSettings],
		['blank globs dropped', { planFiles: ['', ' ', 3, 'P.md'] }, { ...defaultSettings, planFiles: ['P.md'] }],
		['only blank globs', { planFiles: [''] }, defaultSettings],
	];
	for (const [name, cfg, want] of rows) {
		assert.deepEqual(serverSettings((k) => cfg[k]), want, name);
	}
	assert.deepEqual(defaultSettings, { planFiles: ['PLAN.md'], severity: 'information', fadeClosed: false });
});
