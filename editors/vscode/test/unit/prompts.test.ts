import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { completePrompt, deferPrompt, evidenceRequired, reasonRequired } from '../../src/prompts';

test('completePrompt offers the current commit as evidence', () => {
	const p = completePrompt(3, ' Add `x` ', '1a2b3c4');
	assert.equal(p.title, 'Complete #3: Add `x`');
	assert.equal(p.prompt, 'Evidence that #3 is done: a commit, PR, test run or link. Escape cancels.');
	assert.equal(p.value, 'commit 1a2b3c4');
	assert.equal(completePrompt(3, '', undefined).value, '');
	assert.equal(completePrompt(3, '', undefined).title, 'Complete #3');
});

test('deferPrompt has no default reason', () => {
	const p = deferPrompt(4, 'Load test');
	assert.equal(p.title, 'Defer #4: Load test');
	assert.equal(p.prompt, 'Why #4 is deferred; it stays in the plan with this reason. Escape cancels.');
	assert.equal(p.value, '');
});

test('blank answers are refused with the exact message', () => {
	assert.equal(evidenceRequired, 'Evidence is required to complete a plan item.');
	assert.equal(reasonRequired, 'A reason is required to defer a plan item.');
	const c = completePrompt(1, 's', undefined);
	const d = deferPrompt(1, 's');
	for (const blank of ['', ' ', '\t\n']) {
		assert.equal(c.validateInput(blank), evidenceRequired);
		assert.equal(d.validateInput(blank), reasonRequired);
	}
	assert.equal(c.validateInput('PR #9'), undefined);
	assert.equal(d.validateInput('later'), undefined);
});
