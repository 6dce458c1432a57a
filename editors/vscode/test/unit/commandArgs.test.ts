import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeArg, serverArg } from '../../src/commandArgs';

test('normalizeArg accepts code action, sidebar and palette arguments', () => {
	const rows: [string, unknown, unknown][] = [
		['code action object', { id: 3, uri: 'file:///p/PLAN.md' }, { id: 3, uri: 'file:///p/PLAN.md' }],
		['wrapped in an array', [{ id: 3, uri: 'u' }], { id: 3, uri: 'u' }],
		['empty array', [], undefined],
		['bare id', 5, { id: 5 }],
		['bad id', 0, undefined],
		['palette', undefined, undefined],
		['string', 'x', undefined],
		['sidebar item node', { id: 'item:u#3', ref: { id: 3, uri: 'u', subject: 'S' } }, { id: 3, uri: 'u', subject: 'S' }],
		['sidebar plan node', { id: 'plan:u', ref: { id: 0, uri: 'u', subject: 'T' } }, { uri: 'u', subject: 'T' }],
		['unknown fields kept', { id: 1, evidence: 'e', extra: true }, { id: 1, evidence: 'e', extra: true }],
	];
	for (const [name, arg, want] of rows) {
		assert.deepEqual(normalizeArg(arg), want, name);
	}
});

test('normalizeArg copies, so prompting never mutates the caller', () => {
	const orig = { id: 3, uri: 'u' };
	const a = normalizeArg(orig);
	assert.ok(a);
	a.evidence = 'x';
	assert.deepEqual(orig, { id: 3, uri: 'u' });
});

test('serverArg adds the answer and drops client-only fields', () => {
	assert.deepEqual(serverArg({ id: 3, uri: 'u', subject: 'S' }, 'evidence', 'commit abc'), { id: 3, uri: 'u', evidence: 'commit abc' });
	assert.deepEqual(serverArg({ id: 3, uri: 'u' }, 'reason', 'later'), { id: 3, uri: 'u', reason: 'later' });
	assert.deepEqual(serverArg({ id: 3 }), { id: 3 });
});
