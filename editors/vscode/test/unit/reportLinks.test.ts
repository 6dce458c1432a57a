import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkTarget } from '../../src/reportLinks';

test('linkTarget: files inside the root at their line, web links, nothing else', () => {
	const root = '/work/widgets';
	const rows: [string, unknown, ReturnType<typeof linkTarget>][] = [
		['file at a line', 'file:///work/widgets/internal/x.go#L42', { kind: 'file', path: '/work/widgets/internal/x.go', line: 42 }],
		['file, no line', 'file:///work/widgets/PLAN.md', { kind: 'file', path: '/work/widgets/PLAN.md', line: 0 }],
		['escaped path', 'file:///work/widgets/docs/Design%20Notes.md#L3', { kind: 'file', path: '/work/widgets/docs/Design Notes.md', line: 3 }],
		['https', 'https://github.com/acme/widgets/commit/abc', { kind: 'web', url: 'https://github.com/acme/widgets/commit/abc' }],
		['http', 'http://ci.example.com/run/7', { kind: 'web', url: 'http://ci.example.com/run/7' }],
		['outside the root', 'file:///etc/passwd', undefined],
		['dot-dot out of the root', 'file:///work/widgets/../secrets/key', undefined],
		['a sibling with the root as prefix', 'file:///work/widgets-old/x.go', undefined],
		['the root itself', 'file:///work/widgets', undefined],
		['a remote file host', 'file://evil.example.com/work/widgets/x.go', undefined],
		['javascript:', 'javascript:alert(1)', undefined],
		['command:', 'command:workbench.action.terminal.new', undefined],
		['vscode:', 'vscode://file/work/widgets/x.go', undefined],
		['data:', 'data:text/html,<script>alert(1)</script>', undefined],
		['relative', 'internal/x.go', undefined],
		['not a string', { href: 'https://x' }, undefined],
	];
	for (const [name, href, want] of rows) {
		assert.deepEqual(linkTarget(href, root, 'linux'), want, name);
	}
});

test('linkTarget on Windows: drive letters and backslash roots', () => {
	assert.deepEqual(linkTarget('file:///C:/work/widgets/x.go#L2', 'C:\\work\\widgets', 'win32'), { kind: 'file', path: 'C:\\work\\widgets\\x.go', line: 2 });
	assert.equal(linkTarget('file:///D:/other/x.go', 'C:\\work\\widgets', 'win32'), undefined);
});
