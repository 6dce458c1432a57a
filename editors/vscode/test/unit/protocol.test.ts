import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePlan, forPeople, summarizeEnvelope } from '../../src/protocol';
import { readJSON } from './helpers';

test('decodePlan reads the docs/PROTOCOL.md example unchanged', () => {
	const raw = readJSON('protocol-example.json');
	assert.deepEqual(decodePlan(raw), raw);
});

test('decodePlan fills defaults and never throws on bad replies', () => {
	const rows: [string, unknown, unknown][] = [
		['null', null, undefined],
		['array', [], undefined],
		['string', 'PLAN.md', undefined],
		['no key', { approved: true }, undefined],
		[
			'minimal',
			{ planUri: 'file:///p/PLAN.md' },
			{ root: '', planUri: 'file:///p/PLAN.md', exists: false, approved: false, needsReapproval: false, title: '', open: 0, total: 0, stateError: '', revision: 0, groups: [] },
		],
		[
			'mistyped fields',
			{ root: 'file:///p', exists: 'yes', open: -3, total: 2.5, title: 7, groups: 'x' },
			{ root: 'file:///p', planUri: '', exists: false, approved: false, needsReapproval: false, title: '', open: 0, total: 0, stateError: '', revision: 0, groups: [] },
		],
	];
	for (const [name, raw, want] of rows) {
		assert.deepEqual(decodePlan(raw), want, name);
	}
});

test('decodePlan keeps odd items visible instead of dropping them', () => {
	const p = decodePlan({
		root: 'file:///p',
		groups: [
			null,
			{ name: 'G', items: [{ id: 2, status: 'archived', blockedBy: [1, 'x', 2.5, 3], drift: '??', range: { start: { line: 1 }, end: 'x' } }, 'junk', { id: -1 }] },
		],
	});
	assert.ok(p);
	assert.equal(p.groups.length, 1);
	const [a, b] = p.groups[0].items;
	assert.equal(p.groups[0].items.length, 2);
	assert.equal(a.status, 'pending');
	assert.deepEqual(a.blockedBy, [1, 3]);
	assert.equal(a.drift, 'same');
	assert.equal(a.range, null);
	assert.equal(b.id, 0);
});

test('summarizeEnvelope separates text from a rejected call', () => {
	const rows: [string, unknown, { text: string; error: string }][] = [
		['success', { content: [{ type: 'text', text: 'Completed #3' }], details: { action: 'complete' } }, { text: 'Completed #3', error: '' }],
		[
			'rejected',
			{ content: [{ type: 'text', text: 'Error: evidence is required' }], details: { error: 'evidence is required' } },
			{ text: 'Error: evidence is required', error: 'evidence is required' },
		],
		['two texts', { content: [{ text: 'a' }, { text: '' }, 7, { text: 'b' }] }, { text: 'a\nb', error: '' }],
		['null result', null, { text: '', error: '' }],
		['string result', 'ok', { text: '', error: '' }],
	];
	for (const [name, raw, want] of rows) {
		assert.deepEqual(summarizeEnvelope(raw), want, name);
	}
});

test('forPeople shows a deferral with its reason, not the agent\'s instruction', () => {
	assert.equal(
		forPeople('Updated #3 (pending → deferred). Tell the user this plan item is descoped and why: later'),
		'Updated #3 (pending → deferred), reason: later',
	);
	assert.equal(forPeople('Updated #3'), 'Updated #3');
});
