import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { completePrompt, deferPrompt, evidenceRequired, reasonRequired, reopenPrompt, reopenReasonRequired } from '../../src/prompts';

test('completePrompt offers the evidence the server offers', () => {
	const p = completePrompt(3, ' Add `x` ', '1a2b3c4 Add x');
	assert.equal(p.title, 'Complete #3: Add `x`');
	assert.equal(p.prompt, 'Evidence that #3 is done: a commit, PR, test run or link. Escape cancels.');
	assert.equal(p.value, '1a2b3c4 Add x');
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

test('reopenPrompt asks why a completed item is not done', () => {
	const p = reopenPrompt(5, 'Load test');
	assert.equal(p.title, 'Reopen #5: Load test');
	assert.equal(p.prompt, 'Why #5 is not done; its evidence stays in the journal. Escape cancels.');
	assert.equal(p.value, '');
	assert.equal(p.validateInput(' '), reopenReasonRequired);
	assert.equal(reopenReasonRequired, 'A reason is required to reopen a completed plan item.');
});
