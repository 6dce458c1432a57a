import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePlan } from '../../src/protocol';
import { buildTree } from '../../src/treeModel';
import { readJSON } from './helpers';
import { installVscodeStub, Range, ThemeColor, ThemeIcon, TreeItem, Uri } from './vscodeStub';

installVscodeStub();
// Loaded after the stub: treeView imports vscode at load time.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { PlanTreeProvider } = require('../../src/treeView') as typeof import('../../src/treeView');

function provider() {
	const p = new PlanTreeProvider();
	const plan = decodePlan(readJSON('plan-basic.json'));
	assert.ok(plan);
	p.setRoots(buildTree('ready', [plan], p.expansion));
	return p;
}

test('getTreeItem renders an item with its icon, text, menu context and reveal command', () => {
	const p = provider();
	const [root] = p.getChildren();
	const node = p.getChildren(p.getChildren(root)[0])[0];
	const item = p.getTreeItem(node) as unknown as TreeItem;
	assert.equal(item.label, '#1 Add `internal/ratelimit` with a token bucket keyed by API key');
	assert.equal(item.collapsibleState, 0);
	assert.equal(item.id, 'item:file:///work/proj/PLAN.md#1');
	assert.equal(item.description, 'commit 1a2b3c4');
	assert.equal(item.contextValue, 'planls.item.completed');
	assert.deepEqual(item.iconPath, new ThemeIcon('pass-filled', new ThemeColor('testing.iconPassed')));
	assert.deepEqual(item.command, {
		command: 'planls.revealItem',
		title: 'Show in Plan',
		arguments: [{ uri: 'file:///work/proj/PLAN.md', range: { start: { line: 7, character: 0 }, end: { line: 7, character: 62 } } }],
	});
});

test('getTreeItem keeps plan and group nodes expandable and without a click command', () => {
	const p = provider();
	const [root] = p.getChildren();
	const planItem = p.getTreeItem(root) as unknown as TreeItem;
	assert.equal(planItem.collapsibleState, 2);
	assert.equal(planItem.description, '7/10 open');
	assert.equal(planItem.command, undefined);
	const group = p.getTreeItem(p.getChildren(root)[0]) as unknown as TreeItem;
	assert.equal(group.collapsibleState, 2);
	assert.deepEqual(group.iconPath, new ThemeIcon('list-tree'));
	const missing = p.getTreeItem(p.getChildren(root).at(-1)!) as unknown as TreeItem;
	assert.equal(missing.label, '#10 Old bullet removed from the file');
	assert.equal(missing.command, undefined, 'an item missing from the file has nowhere to reveal');
});

test('getParent walks back to the root and setRoots fires a change', () => {
	const p = provider();
	const [root] = p.getChildren();
	const group = p.getChildren(root)[1];
	const leaf = p.getChildren(group)[0];
	assert.equal(p.getParent(leaf), group);
	assert.equal(p.getParent(group), root);
	assert.equal(p.getParent(root), undefined);
	let fired = 0;
	p.onDidChangeTreeData(() => fired++);
	p.setRoots([]);
	assert.equal(fired, 1);
	assert.deepEqual(p.getChildren(), []);
	assert.equal(p.getParent(leaf), undefined, 'parents are rebuilt on every setRoots');
});

test('a refresh that changes nothing fires no tree change (a root refresh drops VS Code click commands)', () => {
	const p = provider();
	const [root] = p.getChildren();
	const leaf = p.getChildren(p.getChildren(root)[0])[0];
	const fired: unknown[] = [];
	p.onDidChangeTreeData((e) => fired.push(e));
	const plan = decodePlan(readJSON('plan-basic.json'));
	assert.ok(plan);
	p.setRoots(buildTree('ready', [plan], p.expansion));
	assert.deepEqual(fired, []);
	assert.equal(p.getChildren(p.getChildren()[0])[0].children[0], leaf, 'node objects are kept');
	const raw = readJSON('plan-basic.json') as any;
	raw.groups[0].items[0].evidence = 'commit ffff';
	p.setRoots(buildTree('ready', [decodePlan(raw)!], p.expansion));
	assert.equal(fired.length, 1);
	assert.deepEqual((fired[0] as { id: string }[]).map((n) => n.id), ['item:file:///work/proj/PLAN.md#1']);
});

test('an evidence file node opens the file at the line the evidence names', () => {
	const p = new PlanTreeProvider();
	const plan = decodePlan(readJSON('plan-verify.json'));
	assert.ok(plan);
	p.setRoots(buildTree('ready', [plan], p.expansion));
	const item = p.getChildren(p.getChildren(p.getChildren()[0])[0])[0];
	assert.equal(p.getTreeItem(item).collapsibleState, 2);
	const [commit, file] = p.getChildren(item);
	const c = p.getTreeItem(commit) as unknown as TreeItem;
	assert.equal(c.label, '1a2b3c4d5e6f Add the parser');
	assert.equal(c.description, '2026-11-01 · on HEAD');
	assert.equal(c.command, undefined);
	const f = p.getTreeItem(file) as unknown as TreeItem;
	assert.equal(f.label, 'src/a.go:3');
	assert.deepEqual(f.command, {
		command: 'vscode.open',
		title: 'Open Evidence File',
		arguments: [Uri.parse('file:///work/proj/src/a.go'), { selection: new Range(2, 0, 2, 0) }],
	});
});
