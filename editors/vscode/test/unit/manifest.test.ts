// Checks package.json against the code: menus only reach nodes they fit,
// every ViewState but ready has a welcome view, settings defaults match, and
// nothing activates the extension at VS Code start.

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { serverCommands } from '../../src/protocol';
import { installHint } from '../../src/serverPath';
import { defaultSettings, severities } from '../../src/settings';

interface MenuEntry {
	command: string;
	when?: string;
	group?: string;
}

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const contributes = manifest.contributes;

function viewItemRegex(when: string): RegExp {
	const m = /viewItem =~ \/(.+?)\/(\s|$)/.exec(when);
	assert.ok(m, `no viewItem regex in ${when}`);
	return new RegExp(m[1]);
}

function commandsFor(contextValue: string, inline: boolean): string[] {
	return (contributes.menus['view/item/context'] as MenuEntry[])
		.filter((e) => (e.group ?? '').startsWith('inline') === inline && viewItemRegex(e.when ?? '').test(contextValue))
		.map((e) => e.command)
		.sort();
}

test('item menus offer exactly the actions that fit each status', () => {
	const rows: [string, string[]][] = [
		['planls.item.pending', ['planls.complete', 'planls.defer', 'planls.start']],
		['planls.item.pending.blocked', ['planls.complete', 'planls.defer', 'planls.start']],
		['planls.item.inProgress', ['planls.complete', 'planls.defer', 'planls.reopen']],
		['planls.item.completed', ['planls.reopen']],
		['planls.item.deferred', ['planls.reopen', 'planls.start']],
		['planls.item.draft', []],
		['planls.plan.unapproved', ['planls.approve']],
		['planls.plan.reapprove', ['planls.approve']],
		['planls.plan.approved', []],
		['planls.group', []],
		['planls.message', []],
	];
	for (const [ctx, want] of rows) {
		assert.deepEqual(commandsFor(ctx, true), want, `inline ${ctx}`);
		assert.deepEqual(commandsFor(ctx, false), want, `context menu ${ctx}`);
	}
});

test('every menu and palette entry names a declared command, and server commands are declared', () => {
	const declared = new Set((contributes.commands as { command: string }[]).map((c) => c.command));
	for (const [menu, entries] of Object.entries(contributes.menus as Record<string, MenuEntry[]>)) {
		for (const e of entries) {
			assert.ok(declared.has(e.command), `${menu}: ${e.command}`);
		}
	}
	for (const c of serverCommands) {
		assert.ok(declared.has(c), c);
	}
});

test('each non-ready view state has a welcome view, and approval is one click', () => {
	const welcome = contributes.viewsWelcome as { view: string; when: string; contents: string }[];
	for (const state of ['starting', 'serverError', 'noFolder', 'noPlan', 'notApproved']) {
		assert.equal(welcome.filter((w) => w.when.includes(`planls.view == ${state}`)).length, 1, state);
	}
	const approve = welcome.find((w) => w.when === 'planls.view == notApproved');
	assert.ok(approve?.contents.includes('[Approve plan](command:planls.approve)'));
	// Install texts say what works today (a clone) and name @latest only as
	// what works once the module is published.
	const error = welcome.find((w) => w.when === 'planls.view == serverError');
	const pathSetting = contributes.configuration.properties['planls.path'].markdownDescription as string;
	for (const [name, text] of [['the server-error welcome', error?.contents ?? ''], ['planls.path', pathSetting]]) {
		assert.ok(text.includes(installHint), `${name}: ${text}`);
		assert.equal(text.split('@latest').length, 2, `${name} names @latest once: ${text}`);
	}
});

test('activation never happens at VS Code start', () => {
	assert.deepEqual(manifest.activationEvents, ['workspaceContains:PLAN.md', 'workspaceContains:.planls', 'onLanguage:markdown']);
});

test('settings defaults match what the server assumes', () => {
	const props = contributes.configuration.properties;
	assert.deepEqual(props['planls.planFiles'].default, defaultSettings.planFiles);
	assert.equal(props['planls.severity'].default, defaultSettings.severity);
	assert.deepEqual(props['planls.severity'].enum, [...severities]);
	assert.equal(props['planls.fadeClosed'].default, defaultSettings.fadeClosed);
	assert.ok(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('planls.path'));
});

test('dependencies are pinned to exact versions', () => {
	for (const deps of [manifest.dependencies, manifest.devDependencies]) {
		for (const [name, version] of Object.entries(deps as Record<string, string>)) {
			assert.match(version, /^\d+\.\d+\.\d+$/, name);
		}
	}
	assert.equal(manifest.license, 'MIT');
});
