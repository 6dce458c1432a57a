// Shared test helpers: fixtures from testdata/ and a text rendering of the
// sidebar for golden comparisons.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NodeView } from '../../src/treeModel';

/** testdata resolves a file under test/unit/testdata from the compiled test (out/test/unit). */
export function testdata(name: string): string {
	return path.join(__dirname, '..', '..', '..', 'test', 'unit', 'testdata', name);
}

/** readJSON parses a testdata file. */
export function readJSON(name: string): unknown {
	return JSON.parse(fs.readFileSync(testdata(name), 'utf8'));
}

/**
 * renderTree prints nodes one per line, indented by depth:
 * `<fold> label — description [icon/color] {contextValue} -> reveal line`.
 */
export function renderTree(nodes: readonly NodeView[], depth = 0): string {
	let out = '';
	for (const n of nodes) {
		const fold = n.collapsible === 'expanded' ? 'v' : n.collapsible === 'collapsed' ? '>' : '-';
		const icon = n.icon ? `[${n.icon.id}${n.icon.color ? '/' + n.icon.color : ''}]` : '[]';
		const desc = n.description ? ` — ${n.description}` : '';
		const reveal = n.reveal && n.kind === 'item' ? ` -> L${n.reveal.range.start.line + 1}` : '';
		out += `${'  '.repeat(depth)}${fold} ${n.label}${desc} ${icon} {${n.contextValue}}${reveal}\n`;
		out += renderTree(n.children, depth + 1);
	}
	return out;
}

/**
 * assertGolden compares got with testdata/<name>; UPDATE_GOLDEN=1 rewrites
 * the file instead (review the diff before committing it).
 */
export function assertGolden(name: string, got: string): void {
	const file = testdata(name);
	if (process.env.UPDATE_GOLDEN === '1') {
		fs.writeFileSync(file, got);
		return;
	}
	assert.equal(got, fs.readFileSync(file, 'utf8'), `golden ${name} differs (UPDATE_GOLDEN=1 rewrites it)`);
}
