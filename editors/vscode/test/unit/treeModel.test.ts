import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePlan, ItemStatus, PlanItem, PlanResult } from '../../src/protocol';
import { buildTree, itemDescription, itemIcon, itemTooltip, pickableItems, planDescription, statusBarText, viewState } from '../../src/treeModel';
import { assertGolden, readJSON, renderTree } from './helpers';

function basic(): PlanResult {
	const p = decodePlan(readJSON('plan-basic.json'));
	assert.ok(p);
	return p;
}

function item(over: Partial<PlanItem>): PlanItem {
	return {
		id: 1,
		subject: 'Do it',
		status: 'pending',
		blocked: false,
		blockedBy: [],
		evidence: '',
		reason: '',
		owner: '',
		activeForm: '',
		drift: 'same',
		range: null,
		verify: null,
		evidenceRefs: [],
		...over,
	};
}

test('sidebar rendering of an approved plan matches the golden', () => {
	const roots = buildTree('ready', [basic()], new Map());
	assertGolden('tree-basic.txt', renderTree(roots));
});

test('itemIcon gives each status its codicon and blocked wins over open statuses', () => {
	const rows: [ItemStatus, boolean, string, string | undefined][] = [
		['pending', false, 'circle-large-outline', undefined],
		['in_progress', false, 'play-circle', 'charts.blue'],
		['completed', false, 'pass-filled', 'testing.iconPassed'],
		['deferred', false, 'debug-step-over', 'disabledForeground'],
		['draft', false, 'circle-small', undefined],
		['pending', true, 'lock', 'list.warningForeground'],
		['in_progress', true, 'lock', 'list.warningForeground'],
		// A closed item stays closed-looking even if a blocker reappears.
		['completed', true, 'pass-filled', 'testing.iconPassed'],
	];
	for (const [status, blocked, id, color] of rows) {
		assert.deepEqual(itemIcon({ status, blocked }), color ? { id, color } : { id }, `${status} blocked=${blocked}`);
	}
});

test('itemDescription shows the proof of closed items and why open ones wait', () => {
	const rows: [string, Partial<PlanItem>, string][] = [
		['completed with evidence', { status: 'completed', evidence: 'PR #12' }, 'PR #12'],
		['completed without evidence', { status: 'completed' }, 'completed'],
		['deferred with reason', { status: 'deferred', reason: 'next quarter' }, 'next quarter'],
		['deferred without reason', { status: 'deferred' }, 'deferred'],
		['in progress with activeForm', { status: 'in_progress', activeForm: 'Writing tests' }, 'Writing tests'],
		['in progress plain', { status: 'in_progress' }, 'in progress'],
		['pending plain', {}, ''],
		['pending with owner', { owner: 'ana' }, '@ana'],
		['pending blocked', { blocked: true, blockedBy: [1, 2] }, 'blocked by #1, #2'],
		['blocked flag without ids', { blocked: true, owner: 'ana' }, '@ana'],
		['in progress blocked', { status: 'in_progress', blocked: true, blockedBy: [4] }, 'blocked by #4'],
		['changed drift', { drift: 'changed' }, 'changed since approval'],
		['drift after proof', { status: 'completed', evidence: 'abc', drift: 'changed' }, 'abc · changed since approval'],
		['missing drift', { drift: 'missing' }, 'missing from the plan file'],
		['new drift', { drift: 'new' }, 'new, not approved'],
		['draft new is not noise', { status: 'draft', id: 0, drift: 'new' }, ''],
	];
	for (const [name, over, want] of rows) {
		assert.equal(itemDescription(item(over)), want, name);
	}
});

test('itemTooltip lists everything known about the item, one line each', () => {
	const got = itemTooltip(
		item({ id: 3, subject: 'Ship it', status: 'in_progress', blocked: true, blockedBy: [1], owner: 'bo', activeForm: 'Shipping', evidence: 'e', reason: 'r', drift: 'changed' }),
	);
	assert.equal(got, '#3 Ship it\nStatus: in progress, blocked\nEvidence: e\nReason: r\nOwner: bo\nNow: Shipping\nBlocked by: #1\nPlan file: changed since approval');
	assert.equal(itemTooltip(item({ id: 0, subject: 'Draft bullet', status: 'draft' })), 'Draft bullet\nStatus: draft (plan not approved)');
});

test('viewState picks the welcome view from server state and plans', () => {
	const approved = basic();
	const draft: PlanResult = { ...basic(), approved: false, planUri: 'file:///b/PLAN.md' };
	const missing: PlanResult = { ...basic(), exists: false };
	const rows: [string, Parameters<typeof viewState>[0], PlanResult[], string][] = [
		['starting', 'starting', [approved], 'starting'],
		['server failed', 'error', [approved], 'serverError'],
		['no folder', 'noFolder', [], 'noFolder'],
		['no plans', 'running', [], 'noPlan'],
		['plan file missing', 'running', [missing], 'noPlan'],
		['only a draft', 'running', [draft], 'notApproved'],
		['approved', 'running', [approved], 'ready'],
		['one of two approved', 'running', [draft, approved], 'ready'],
	];
	for (const [name, server, plans, want] of rows) {
		assert.equal(viewState(server, plans), want, name);
	}
});

test('buildTree is empty unless ready, so the welcome view shows', () => {
	for (const state of ['starting', 'serverError', 'noFolder', 'noPlan', 'notApproved'] as const) {
		assert.deepEqual(buildTree(state, [basic()], new Map()), [], state);
	}
});

test('buildTree keeps node ids across refreshes and honours remembered collapse', () => {
	const before = buildTree('ready', [basic()], new Map());
	const group = before[0].children[0];
	assert.equal(group.label, 'Important changes');
	assert.equal(group.collapsible, 'expanded');
	const changed = basic();
	changed.groups[0].items[2].status = 'completed';
	const after = buildTree('ready', [changed], new Map([[group.id, false]]));
	const ids = (ns: typeof before): string[] => ns.flatMap((n) => [n.id, ...ids(n.children)]);
	assert.deepEqual(ids(after), ids(before));
	assert.equal(after[0].children[0].collapsible, 'collapsed');
	assert.equal(after[0].collapsible, 'expanded');
	assert.equal(after[0].children[0].children[2].contextValue, 'planls.item.completed.blocked');
	assert.equal(new Set(ids(after)).size, ids(after).length, 'ids are unique');
});

test('buildTree shows each plan once and keeps unapproved plans approvable in a multi-root window', () => {
	const a = basic();
	const b: PlanResult = {
		...basic(),
		root: 'file:///work/b',
		planUri: 'file:///work/b/PLAN.md',
		approved: false,
		title: '',
		groups: [{ name: '', items: [item({ id: 0, status: 'draft', subject: 'First', drift: 'new' })] }],
	};
	const roots = buildTree('ready', [a, b, { ...a }], new Map());
	assert.equal(roots.length, 2);
	assert.equal(roots[1].label, 'PLAN.md');
	assert.equal(roots[1].description, 'not approved');
	assert.equal(roots[1].contextValue, 'planls.plan.unapproved');
	assert.equal(roots[1].children[0].contextValue, 'planls.item.draft');
	assert.equal(roots[1].children[0].ref, undefined, 'drafts have no id to act on');
	assert.notEqual(roots[0].children[0].id, roots[1].children[0].id);
});

test('buildTree gives duplicate group headings distinct ids and surfaces a state error', () => {
	const p = basic();
	p.groups = [
		{ name: 'Tests', items: [item({ id: 1 })] },
		{ name: 'Tests', items: [item({ id: 2 })] },
	];
	p.stateError = 'state file .planls/todo.json does not parse; it is left untouched';
	const [root] = buildTree('ready', [p], new Map());
	assert.equal(root.description, '7/10 open · state error');
	assert.equal(root.icon?.id, 'error');
	assert.equal(root.children[0].kind, 'message');
	assert.equal(root.children[0].label, p.stateError);
	assert.notEqual(root.children[1].id, root.children[2].id);
});

test('planDescription reports counts and what needs attention', () => {
	assert.equal(planDescription(basic()), '7/10 open');
	assert.equal(planDescription({ ...basic(), needsReapproval: true }), '7/10 open · changed, re-approve');
	assert.equal(planDescription({ ...basic(), approved: false }), 'not approved');
});

test('statusBarText sums approved plans once each', () => {
	const a = basic();
	const b: PlanResult = { ...basic(), root: 'file:///b', planUri: 'file:///b/PLAN.md', open: 1, total: 2 };
	const draft: PlanResult = { ...basic(), root: 'file:///c', planUri: 'file:///c/PLAN.md', approved: false };
	const rows: [string, PlanResult[], string | undefined][] = [
		['none', [], undefined],
		['missing file', [{ ...a, exists: false }], undefined],
		['one', [a], 'Plan 7/10 open'],
		['two roots', [a, b], 'Plan 8/12 open'],
		['same plan from two folders', [a, { ...a }], 'Plan 7/10 open'],
		['draft only', [draft], 'Plan not approved'],
		['draft ignored beside approved', [draft, b], 'Plan 1/2 open'],
		['all done', [{ ...b, open: 0 }], 'Plan 0/2 open'],
	];
	for (const [name, plans, want] of rows) {
		assert.equal(statusBarText(plans), want, name);
	}
});

test('pickableItems offers only items the action applies to', () => {
	const p = basic();
	const ids = (a: Parameters<typeof pickableItems>[1]) => pickableItems([p], a).map((r) => r.id);
	assert.deepEqual(ids('complete'), [2, 3, 4, 5, 6, 9, 10]);
	assert.deepEqual(ids('defer'), [2, 3, 4, 5, 6, 9, 10]);
	assert.deepEqual(ids('start'), [3, 4, 5, 6, 7, 9, 10]);
	assert.deepEqual(ids('reopen'), [1, 2, 7, 8]);
	assert.deepEqual(pickableItems([{ ...p, approved: false }], 'complete'), []);
	assert.deepEqual(pickableItems([p], 'complete')[0], { id: 2, uri: 'file:///work/proj/PLAN.md', subject: 'Wire the limiter into `POST /v1/ingest` and `POST /v1/batch`' });
});

test('completed items show their verify state and evidence references', () => {
	const plan = decodePlan(readJSON('plan-verify.json'));
	assert.ok(plan);
	const [root] = buildTree('ready', [plan], new Map());
	const [verified, failed, weak] = root.children[0].children;
	assert.equal(verified.description, 'commit 1a2b3c4, see src/a.go:3');
	assert.match(verified.tooltip, /\nVerify: verified$/);
	assert.deepEqual(
		verified.children.map((c) => [c.kind, c.label, c.contextValue, c.open]),
		[
			['evidence', '1a2b3c4d5e6f Add the parser', 'planls.evidence.commit', undefined],
			['evidence', 'src/a.go:3', 'planls.evidence.file', { uri: 'file:///work/proj/src/a.go', line: 3 }],
		],
	);
	assert.equal(failed.description, 'lex.go:9 · verification failed');
	assert.match(failed.tooltip, /\nVerify: failed: file lex.go does not exist$/);
	// A failed file has nothing to open, but says why.
	assert.deepEqual(
		failed.children.map((c) => [c.label, c.description, c.open, c.icon?.id]),
		[['lex.go:9', 'file lex.go does not exist', undefined, 'error']],
	);
	assert.equal(weak.description, 'done · weak evidence');
	assert.equal(weak.collapsible, 'none');
	assert.match(weak.tooltip, /\nVerify: weak evidence, names nothing checkable$/);
	// An older server sends no verify state: nothing changes.
	const old = decodePlan(readJSON('plan-basic.json'));
	assert.ok(old);
	assert.equal(old.groups[0].items[0].verify, null);
	assert.deepEqual(old.groups[0].items[0].evidenceRefs, []);
});
