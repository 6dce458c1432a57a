import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePlan, PlanResult } from '../../src/protocol';
import { reconcile } from '../../src/treeDiff';
import { buildTree, NodeView } from '../../src/treeModel';
import { readJSON } from './helpers';

function plan(edit?: (raw: any) => void): PlanResult {
	const raw = readJSON('plan-basic.json') as any;
	edit?.(raw);
	const p = decodePlan(raw);
	assert.ok(p);
	return p;
}

function tree(p: PlanResult, expansion = new Map<string, boolean>()): NodeView[] {
	return buildTree('ready', [p], expansion);
}

function find(nodes: readonly NodeView[], id: string): NodeView | undefined {
	for (const n of nodes) {
		if (n.id === id) {
			return n;
		}
		const c = find(n.children, id);
		if (c) {
			return c;
		}
	}
	return undefined;
}

const item2 = 'item:file:///work/proj/PLAN.md#2';

test('an identical tree fires nothing and keeps every node object', () => {
	const first = reconcile([], tree(plan()));
	assert.equal(first.changed, 'all');
	const again = reconcile(first.roots, tree(plan()));
	assert.deepEqual(again.changed, []);
	assert.equal(again.roots[0], first.roots[0]);
	assert.equal(find(again.roots, item2), find(first.roots, item2));
});

test('a status change fires the item and its plan node (the open count), nothing else', () => {
	const shown = reconcile([], tree(plan())).roots;
	const before = find(shown, item2);
	const r = reconcile(
		shown,
		tree(
			plan((raw) => {
				raw.groups[0].items[1].status = 'pending';
				raw.open = 8;
			}),
		),
	);
	assert.notEqual(r.changed, 'all');
	const ids = (r.changed as NodeView[]).map((n) => n.id).sort();
	assert.deepEqual(ids, ['item:file:///work/proj/PLAN.md#2', 'plan:file:///work/proj/PLAN.md']);
	const after = find(r.roots, item2);
	assert.equal(after, before, 'the same object, updated in place');
	assert.equal(after?.contextValue, 'planls.item.pending');
});

test('an item added to a group fires the group; collapsing a group is not a change', () => {
	const shown = reconcile([], tree(plan())).roots;
	const group = shown[0].children[0];
	const expansion = new Map([[group.id, false]]);
	const collapsed = reconcile(shown, tree(plan(), expansion));
	assert.deepEqual(collapsed.changed, []);
	const r = reconcile(
		collapsed.roots,
		tree(
			plan((raw) => {
				raw.groups[0].items.push({ ...raw.groups[0].items[0], id: 11, subject: 'new' });
			}),
			expansion,
		),
	);
	assert.notEqual(r.changed, 'all');
	assert.ok((r.changed as NodeView[]).includes(group), 'the group whose children changed');
	assert.equal(find(r.roots, 'item:file:///work/proj/PLAN.md#11')?.label, '#11 new');
});

test('optional fields that disappear are removed from the kept object', () => {
	const shown = reconcile([], tree(plan())).roots;
	assert.ok(find(shown, item2)?.reveal);
	const r = reconcile(shown, tree(plan((raw) => delete raw.groups[0].items[1].range)));
	assert.equal(find(r.roots, item2)?.reveal, undefined);
	assert.ok((r.changed as NodeView[]).some((n) => n.id === item2));
});

test('a node that moves to another parent, or new roots, refresh the whole tree', () => {
	const shown = reconcile([], tree(plan())).roots;
	const moved = reconcile(
		shown,
		tree(
			plan((raw) => {
				raw.groups[1].items.push(raw.groups[0].items.splice(1, 1)[0]);
			}),
		),
	);
	assert.equal(moved.changed, 'all');
	assert.equal(reconcile(moved.roots, []).changed, 'all');
});
