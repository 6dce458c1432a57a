// The browser half of the e2e test: what a user does in the workbench, and
// what must show up. Every wait is on a DOM condition with a timeout.
'use strict';

const { execFile } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { shot, step, waitFor } = require('./util');

const cache = process.env.PLANLS_TEST_CACHE || path.join(os.homedir(), '.cache', 'planls-test');
const { chromium } = require(path.join(cache, 'e2e', 'node_modules', 'playwright-core'));

const T = { load: 120000, server: 60000, ui: 20000 };
const statusRe = /Plan (\d+)\/(\d+) open/;
// Problems entries of open items (docs/PROTOCOL.md "Diagnostics").
const openMsgRe = /open plan item #(\d+) \(pending\)|plan item #(\d+) in progress|plan item #(\d+) is blocked/;

function sidebar(page) {
	return page.locator('.part.sidebar');
}

async function statusCounts(page) {
	const items = page.locator('.part.statusbar .statusbar-item');
	const texts = await items.allInnerTexts();
	for (const t of texts) {
		const m = statusRe.exec(t);
		if (m) {
			return { open: Number(m[1]), total: Number(m[2]), text: m[0] };
		}
	}
	return undefined;
}

/** runCommand runs a command through the palette (F1) by its title. */
async function runCommand(page, title) {
	await page.keyboard.press('Escape');
	await page.keyboard.press('F1');
	const input = page.locator('.quick-input-widget input');
	await input.waitFor({ state: 'visible', timeout: T.ui });
	await input.fill(`>${title}`);
	const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
	await row.waitFor({ state: 'visible', timeout: T.ui });
	await page.keyboard.press('Enter');
}

/** problemRows returns the text of each Problems entry that is a planls open-item diagnostic. */
async function problemRows(page) {
	const texts = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
	return texts.filter((t) => openMsgRe.test(t));
}

/** problemsBadge is the count on the Problems tab (all entries, not only visible rows). */
async function problemsBadge(page) {
	const badge = page.locator('.part.panel .action-item', { has: page.locator('[aria-label^="Problems"]') }).locator('.badge-content').first();
	if (!(await badge.isVisible().catch(() => false))) {
		return 0;
	}
	const n = parseInt((await badge.innerText()).trim(), 10);
	return Number.isNaN(n) ? 0 : n;
}

function idOf(text) {
	const m = openMsgRe.exec(text);
	return m ? Number(m[1] || m[2] || m[3]) : undefined;
}

/** treeRow is the sidebar row of plan item #id. */
function treeRow(page, id) {
	return sidebar(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^#${id} `) }) });
}

/**
 * openCodeAction opens the Problems entry at problemIndex in the editor,
 * shows the quick-fix menu there and waits for the action titled title.
 * VS Code can swallow the first Ctrl+. after a click in Problems, so a menu
 * that does not show is asked for once more.
 */
async function openCodeAction(page, problemIndex, title) {
	const row = page.locator('.markers-panel .monaco-list-row', { hasText: openMsgRe }).nth(problemIndex);
	const action = page.locator('.action-widget .monaco-list-row', { hasText: title }).first();
	for (let attempt = 1; attempt <= 2; attempt++) {
		await row.click();
		await page.keyboard.press('Enter'); // opens the entry in the editor with focus on its line
		await page.waitForTimeout(400);
		await page.keyboard.press('Control+.');
		try {
			await action.waitFor({ state: 'visible', timeout: 5000 });
			return;
		} catch (err) {
			if (attempt === 2) {
				throw err;
			}
			await page.keyboard.press('Escape');
		}
	}
	throw new Error('unreachable');
}

/**
 * chooseAction runs the code action titled title from the open menu with the
 * keyboard: a mouse click can land on the widget's pointer block.
 */
async function chooseAction(page, title) {
	const focused = page.locator('.action-widget .monaco-list-row.focused');
	for (let i = 0; i < 12; i++) {
		const text = await focused.innerText({ timeout: T.ui }).catch(() => '');
		if (text.includes(title)) {
			await page.keyboard.press('Enter');
			return;
		}
		await page.keyboard.press('ArrowDown');
	}
	throw new Error(`no code action ${title} in the menu`);
}

async function run({ url, multiUrl, outDir, commit, evidence, settingsFile, ws, planls }) {
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
	});
	try {
		await withPage(browser, outDir, (page) => flow(page, { url, outDir, commit, evidence, ws, planls }));
		await withPage(browser, outDir, (page) => multiRoot(page, { url: multiUrl, outDir, settingsFile }));
	} catch (err) {
		await browser.close().catch(() => {});
		throw err;
	}
	return browser;
}

/** withPage runs fn on a fresh page and keeps a screenshot, the DOM and console errors when it fails. */
async function withPage(browser, outDir, fn) {
	const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
	const consoleErrors = [];
	page.on('console', (m) => {
		if (m.type() === 'error') {
			consoleErrors.push(m.text());
		}
	});
	try {
		await fn(page);
	} catch (err) {
		await shot(page, outDir, 'failure').catch(() => {});
		fs.writeFileSync(path.join(outDir, 'failure.html'), await page.content().catch(() => ''));
		fs.writeFileSync(path.join(outDir, 'console-errors.txt'), consoleErrors.join('\n'));
		throw err;
	}
	await page.close();
}

/**
 * itemLine is the 1-based line of ws/PLAN.md where the item whose sidebar
 * label is label starts (the label is the subject without markdown).
 */
function itemLine(ws, label) {
	const words = label.replace(/^#\d+ /, '').split(/\s+/).slice(0, 3).join(' ');
	const lines = fs.readFileSync(path.join(ws, 'PLAN.md'), 'utf8').split('\n');
	const i = lines.findIndex((l) => /^\s*- /.test(l) && l.replace(/`/g, '').includes(words));
	if (i < 0) {
		throw new Error(`no item line of PLAN.md holds "${words}"`);
	}
	return i + 1;
}

/** cursorLine is the editor's "Ln N" from the status bar (undefined when no editor has focus). */
async function cursorLine(page) {
	const texts = await page.locator('.part.statusbar .statusbar-item').allInnerTexts();
	for (const t of texts) {
		const m = /Ln (\d+)/.exec(t);
		if (m) {
			return Number(m[1]);
		}
	}
	return undefined;
}

/**
 * churn starts and reopens plan item id with the CLI, one call after the
 * other, until the returned stop() (which waits for the last call). The
 * item ends pending, as it started.
 */
function churn(ws, planls, id) {
	let stopped = false;
	const done = (async () => {
		for (let i = 0; !stopped || i % 2 === 1; i++) {
			await new Promise((resolve) => {
				execFile(planls, ['todo', i % 2 === 0 ? 'start' : 'reopen', String(id)], { cwd: ws }, () => resolve());
			});
		}
	})();
	return async () => {
		stopped = true;
		await done;
	};
}

/** inlineAction clicks a tree row's inline action button (shown on hover) by its title. */
async function inlineAction(page, row, title) {
	await row.hover();
	const button = row.locator(`.actions .action-label[aria-label="${title}"]`).first();
	await button.waitFor({ state: 'visible', timeout: T.ui });
	await button.click();
}

/** widenSidebar drags the sidebar's edge so labels and evidence are readable in screenshots. */
async function widenSidebar(page, width) {
	const box = await sidebar(page).boundingBox();
	if (!box || box.width >= width) {
		return;
	}
	const x = box.x + box.width - 1;
	const y = box.y + box.height / 2;
	await page.mouse.move(x, y);
	await page.mouse.down();
	await page.mouse.move(x + (width - box.width) / 2, y, { steps: 4 });
	await page.mouse.move(x + width - box.width, y, { steps: 4 });
	await page.mouse.up();
	// Off the sash, so its highlight is not in the screenshots.
	await page.mouse.move(x + width + 300, y + 200);
}

async function flow(page, { url, outDir, commit, evidence, ws, planls }) {
	await step('load the workbench', async () => {
		await page.goto(url, { waitUntil: 'domcontentloaded', timeout: T.load });
		await page.locator('.monaco-workbench').waitFor({ timeout: T.load });
	});

	await step('open the Plan sidebar and see the welcome view', async () => {
		await page.locator('.part.activitybar [aria-label^="Plan"]').first().click({ timeout: T.load });
		await widenSidebar(page, 470);
		await sidebar(page).locator('.welcome-view-content .monaco-button', { hasText: 'Approve plan' }).waitFor({ state: 'visible', timeout: T.server });
		await shot(page, outDir, '01-welcome-approve');
	});

	// Before approval, PLAN.md previews what approving it would
	// track, as code lenses drawn in the editor.
	await step('preview the unapproved plan: code lenses on PLAN.md', async () => {
		await page.keyboard.press('Escape');
		await page.keyboard.press('F1');
		const input = page.locator('.quick-input-widget input');
		await input.waitFor({ state: 'visible', timeout: T.ui });
		await input.fill('PLAN.md'); // no '>': Quick Open finds files
		await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'PLAN.md' }).first().waitFor({ state: 'visible', timeout: T.ui });
		await page.keyboard.press('Enter');
		await page.locator('.editor-group-container .tab', { hasText: 'PLAN.md' }).first().waitFor({ timeout: T.ui });
		const lens = (text) => page.locator('.monaco-editor .codelens-decoration', { hasText: text }).first();
		await lens(/Approve plan \(\d+ plan items?\)/).waitFor({ state: 'visible', timeout: T.server });
		await lens('will be tracked').waitFor({ state: 'visible', timeout: T.server });
		await lens(/\d+ plan items? on approval/).waitFor({ state: 'visible', timeout: T.server });
		await shot(page, outDir, '01b-preview-lenses');
	});

	let before;
	await step('approve the plan from the welcome button', async () => {
		await sidebar(page).locator('.welcome-view-content .monaco-button', { hasText: 'Approve plan' }).click();
		await treeRow(page, 1).waitFor({ state: 'visible', timeout: T.server });
		before = await waitFor('the status bar count', T.server, () => statusCounts(page));
		if (before.open < 2 || before.total < before.open) {
			throw new Error(`implausible status bar ${before.text}`);
		}
		const pending = await sidebar(page).locator('.codicon-circle-large-outline').count();
		if (pending !== before.open) {
			throw new Error(`sidebar shows ${pending} pending items, status bar says ${before.text}`);
		}
		await shot(page, outDir, '02-approved-sidebar');
	});

	const lines = {};
	await step('open PLAN.md by clicking an item in the sidebar', async () => {
		for (const id of [1, 3]) {
			lines[id] = itemLine(ws, await treeRow(page, id).locator('.label-name').innerText());
		}
		await treeRow(page, 1).click();
		await page.locator('.editor-group-container .tab', { hasText: 'PLAN.md' }).first().waitFor({ timeout: T.ui });
		await waitFor(`the cursor on #1 (line ${lines[1]})`, T.ui, async () => (await cursorLine(page)) === lines[1]);
	});

	await step('sidebar clicks land while the CLI keeps changing another item', async () => {
		// Each CLI change refreshes the sidebar. Refreshing the whole tree
		// dropped VS Code's cached click commands until the workbench had
		// re-read it ("Actual command not found, wanted to execute
		// planls.revealItem /1" on a busy machine); only #7 may change now.
		//
		// Each click waits for the cursor on its own item's line: waiting for
		// "a line other than the last one seen" passed on the previous click's
		// late effect, and then missed a click whose effect came with the one
		// before it between two looks (8 -> 13 -> 8 looks like no move).
		const stop = churn(ws, planls, 7);
		try {
			for (let i = 0; i < 6; i++) {
				const id = i % 2 === 0 ? 3 : 1;
				await treeRow(page, id).click();
				await waitFor(`click ${i + 1} to move the cursor to #${id} (line ${lines[id]})`, T.ui, async () => (await cursorLine(page)) === lines[id]);
			}
		} finally {
			await stop();
		}
		const notes = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
		const bad = notes.filter((t) => /command not found|which plan item/i.test(t));
		if (bad.length > 0) {
			throw new Error(`notifications: ${bad.join(' | ')}`);
		}
		await treeRow(page, 7).locator('.codicon-circle-large-outline').waitFor({ timeout: T.server });
	});

	let first;
	await step(`the Problems panel lists one entry per open item`, async () => {
		await runCommand(page, 'Problems: Focus on Problems View');
		const rows = await waitFor(`${before.open} planls entries in Problems`, T.server, async () => {
			const r = await problemRows(page);
			return r.length === before.open ? r : undefined;
		});
		const badge = await problemsBadge(page);
		if (badge !== before.open) {
			throw new Error(`Problems badge ${badge}, want ${before.open} (one per open item)`);
		}
		first = idOf(rows[0]);
		await shot(page, outDir, '03-problems');
	});

	await step(`complete #${first} from its code action with typed evidence`, async () => {
		await openCodeAction(page, 0, `Complete #${first}…`);
		await shot(page, outDir, '04-code-action');
		await chooseAction(page, `Complete #${first}…`);
		const input = page.locator('.quick-input-widget input');
		await input.waitFor({ state: 'visible', timeout: T.ui });
		await page.locator('.quick-input-widget .quick-input-title', { hasText: `Complete #${first}` }).waitFor({ timeout: T.ui });
		const offered = await input.inputValue();
		// The only commit (${commit}) adds PLAN.md: it proves no item, so it
		// is not offered as the default evidence.
		if (offered !== '') {
			throw new Error(`default evidence ${JSON.stringify(offered)}, want none: commit ${commit} only adds the plan`);
		}
		await input.fill(evidence);
		await shot(page, outDir, '05-evidence');
		await page.keyboard.press('Enter');
	});

	await step('sidebar, status bar and Problems update', async () => {
		const want = `Plan ${before.open - 1}/${before.total} open`;
		await waitFor(want, T.server, async () => (await statusCounts(page))?.text === want);
		const row = treeRow(page, first);
		await row.locator('.codicon-pass-filled').waitFor({ timeout: T.server });
		await row.locator('.label-description', { hasText: evidence }).waitFor({ timeout: T.ui });
		// The typed evidence names nothing checkable: the item leaves the open
		// items and gets a weak-evidence warning instead.
		await waitFor(`${before.open - 1} open items and 1 weak-evidence warning in Problems`, T.server,
			async () => (await problemsBadge(page)) === before.open);
		const weak = await page.locator('.markers-panel .monaco-list-row').allInnerTexts();
		if (!weak.some((t) => t.includes(`plan item #${first} is completed with weak evidence`))) {
			throw new Error(`no weak-evidence warning for #${first} in Problems: ${JSON.stringify(weak)}`);
		}
		await row.locator('.label-description', { hasText: 'weak evidence' }).waitFor({ timeout: T.ui });
		const left = (await problemRows(page)).map(idOf);
		if (left.includes(first)) {
			throw new Error(`#${first} is still in Problems`);
		}
		await shot(page, outDir, '06-completed');
		// Sidebar, editor and status bar, for docs/img/vscode-sidebar.png; no hover in the way.
		await page.mouse.move(1390, 500);
		await page.waitForTimeout(300);
		await shot(page, outDir, 'sidebar', { x: 0, y: 0, width: 1400, height: 1000 });
	});

	let second;
	await step('Escape in the Defer prompt changes nothing', async () => {
		const rows = await problemRows(page);
		const id = idOf(rows[0]);
		await openCodeAction(page, 0, `Defer #${id}…`);
		await chooseAction(page, `Defer #${id}…`);
		await page.locator('.quick-input-widget .quick-input-title', { hasText: `Defer #${id}` }).waitFor({ timeout: T.ui });
		await page.keyboard.press('Escape');
		await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: T.ui });
		await page.waitForTimeout(1500);
		const now = await statusCounts(page);
		if (!now || now.open !== before.open - 1) {
			throw new Error(`status bar changed after Escape: ${now && now.text}`);
		}
		if ((await treeRow(page, id).locator('.codicon-circle-large-outline, .codicon-lock').count()) !== 1) {
			throw new Error(`#${id} changed status after Escape`);
		}
		second = id;
	});

	await step("Start and Reopen from the sidebar's inline actions; a collapsed group stays collapsed", async () => {
		const group = sidebar(page).locator('.monaco-list-row', { hasText: 'Tests and verification' }).first();
		await setExpanded(page, group, false);
		const row = treeRow(page, second);
		await inlineAction(page, row, 'Start');
		await row.locator('.codicon-play-circle').waitFor({ timeout: T.server });
		await inlineAction(page, row, 'Reopen');
		await row.locator('.codicon-circle-large-outline').waitFor({ timeout: T.server });
		const now = await statusCounts(page);
		if (!now || now.open !== before.open - 1) {
			throw new Error(`status bar ${now && now.text} after Start and Reopen`);
		}
		if ((await group.getAttribute('aria-expanded')) !== 'false' || (await treeRow(page, 5).count()) !== 0) {
			throw new Error('the collapsed group was expanded again by a refresh');
		}
		await setExpanded(page, group, true);
		await treeRow(page, 5).waitFor({ timeout: T.ui });
	});

	await step('restart the server twice (no "command already exists")', async () => {
		for (let i = 0; i < 2; i++) {
			await runCommand(page, 'planls: Restart Server');
			await page.waitForTimeout(500);
			await waitFor('the status bar after restart', T.server, async () => (await statusCounts(page))?.open === before.open - 1);
		}
		const notes = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
		const bad = notes.filter((t) => /already exists|failed|not running/i.test(t));
		if (bad.length > 0) {
			throw new Error(`error notifications: ${bad.join(' | ')}`);
		}
		await treeRow(page, first).locator('.codicon-pass-filled').waitFor({ timeout: T.server });
		await shot(page, outDir, '07-after-restarts');
	});

	await step('an evidence file under a completed item opens at its line', async () => {
		// notes/design.md is written by setup; the CLI completes the item.
		await new Promise((resolve, reject) =>
			execFile(planls, ['todo', 'complete', String(second), '--evidence', 'see notes/design.md:2'], { cwd: ws }, (err) =>
				err ? reject(err) : resolve(),
			),
		);
		// The item gains children: VS Code shows an item whose id it knew as a
		// leaf collapsed, so open it as a user would.
		const row = treeRow(page, second);
		await waitFor(`#${second} to get its evidence children`, T.server, async () => (await row.getAttribute('aria-expanded')) !== null);
		await setExpanded(page, row, true);
		const file = sidebar(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^notes\/design\.md:2$/ }) });
		await file.waitFor({ timeout: T.ui });
		await file.click();
		await page.locator('.tabs-container .tab.active', { hasText: 'design.md' }).waitFor({ timeout: T.ui });
		await page.locator('.part.statusbar .statusbar-item', { hasText: /Ln 2, Col 1/ }).first().waitFor({ timeout: T.ui });
		await shot(page, outDir, '09-evidence-file');
	});

	await step('"planls: Show Plan Report" shows the report in a webview; other people\'s text stays text', async () => {
		const [done, deferred] = [4, 5, 6].filter((id) => id !== first && id !== second);
		const cli = (...args) => new Promise((resolve, reject) => execFile(planls, args, { cwd: ws }, (err) => (err ? reject(err) : resolve())));
		await cli('todo', 'complete', String(done), '--evidence', 'notes/design.md:3 <img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>');
		await cli('todo', 'defer', String(deferred), '--reason', '[later](javascript:window.__pwned=3) <b onmouseover="window.__pwned=4">bold</b>');
		await runCommand(page, 'planls: Show Plan Report');
		// The webview's page is nested in frames of its own; find the one that holds the report.
		const frame = await waitFor('the report in a webview', T.server, async () => {
			for (const f of page.frames()) {
				if (await f.$(`#item-${deferred} .reason`).catch(() => null)) {
					return f;
				}
			}
			return undefined;
		});
		const dom = await frame.evaluate(([d, r]) => ({
			pwned: window.__pwned,
			imgs: document.querySelectorAll('img').length,
			bold: document.querySelectorAll('main b').length,
			handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`)),
			jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => !/^(#|file:|https?:)/.test(a.getAttribute('href'))).length,
			evidence: document.querySelector(`#item-${d} .evidence`).textContent,
			reason: document.querySelector(`#item-${r} .reason`).textContent,
			summary: document.querySelector('#summary').textContent,
			dark: document.body.classList.contains('vscode-dark'),
			background: getComputedStyle(document.body).backgroundColor,
		}), [done, deferred]);
		const bad = [];
		if (dom.pwned !== undefined) bad.push(`a script ran (window.__pwned = ${dom.pwned})`);
		if (dom.imgs || dom.bold) bad.push(`markup from the text became elements (${dom.imgs} img, ${dom.bold} b)`);
		if (dom.handlers.length) bad.push(`event handlers: ${dom.handlers.join(', ')}`);
		if (dom.jsLinks) bad.push(`${dom.jsLinks} links to something other than the page, a file or the web`);
		if (!dom.evidence.includes('<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>')) bad.push(`evidence shown as ${JSON.stringify(dom.evidence)}`);
		if (!dom.reason.includes('[later](javascript:window.__pwned=3) <b onmouseover="window.__pwned=4">bold</b>')) bad.push(`reason shown as ${JSON.stringify(dom.reason)}`);
		if (!/ done \(\d+%\), 1 deferred/.test(dom.summary)) bad.push(`summary ${JSON.stringify(dom.summary)}`);
		// The workbench's dark theme, not the system's, colours the page.
		if (dom.dark && dom.background !== 'rgb(13, 17, 23)') bad.push(`a dark workbench shows the report on ${dom.background}`);
		if (bad.length) {
			throw new Error(bad.join('; '));
		}
		await shot(page, outDir, '10-report-webview');
		// A file link of the evidence opens the file at its line in the editor.
		await frame.click(`#item-${done} .evidence a.ref`);
		await page.locator('.tabs-container .tab.active', { hasText: 'design.md' }).waitFor({ timeout: T.ui });
		await page.locator('.part.statusbar .statusbar-item', { hasText: /Ln 3, Col 1/ }).first().waitFor({ timeout: T.ui });
	});
}

/**
 * openWorkspaceWindow loads a .code-workspace window and waits until the
 * workbench itself lists the folders. On the first open of a workspace file
 * the workbench (VS Code web in code-server) starts from its configuration
 * cache, still empty, because the remote file system is not registered yet,
 * and the reload of the real file can miss the workspace: the window then
 * keeps no folder at all (the Explorer says "You
 * have not yet added a folder to the workspace.", vscode.workspace.
 * workspaceFolders is [] and no folder change ever fires). Seen after the
 * first window ran, about 1 run in 3 and on every full run in CI, and twice
 * in a row under load. A reload
 * reads the now cached file, as it would for a user; anything the extension
 * does wrong with the folders still fails the steps after this.
 */
async function openWorkspaceWindow(page, url, folders) {
	const explorer = page.locator('.part.sidebar');
	const empty = explorer.locator('.welcome-view-content', { hasText: 'You have not yet added a folder to the workspace' });
	for (let attempt = 1; ; attempt++) {
		await page.goto(url, { waitUntil: 'domcontentloaded', timeout: T.load });
		await page.locator('.monaco-workbench').waitFor({ timeout: T.load });
		// A command, not the activity bar: clicking the active container hides it.
		await runCommand(page, 'View: Show Explorer');
		const first = explorer.locator('.monaco-list-row', { hasText: folders[0] });
		await first.or(empty).first().waitFor({ timeout: T.load });
		if (!(await empty.isVisible())) {
			break;
		}
		// Under load (two CPU hogs beside the suite) two folderless opens in
		// a row were seen; four in a row would be a real failure to open.
		if (attempt === 4) {
			throw new Error(`the workbench opened ${url} without its folders ${attempt} times`);
		}
		console.log('(the workbench came up without the workspace folders; reloading) ');
	}
	for (const name of folders) {
		await explorer.locator('.monaco-list-row', { hasText: name }).first().waitFor({ timeout: T.ui });
	}
}

/**
 * multiRoot opens a window with two folders, each with an approved plan:
 * both plans show, and restarting the server twice keeps them.
 */
async function multiRoot(page, { url, outDir, settingsFile }) {
	await step('multi-root window: both folders get a tree and diagnostics', async () => {
		await openWorkspaceWindow(page, url, ['svc-a', 'svc-b']);
		await page.locator('.part.activitybar [aria-label^="Plan"]').first().click({ timeout: T.load });
		for (const title of ['Service A', 'Service B']) {
			await sidebar(page).locator('.monaco-list-row', { hasText: title }).waitFor({ timeout: T.server });
		}
		await waitFor('Plan 5/5 open', T.server, async () => (await statusCounts(page))?.text === 'Plan 5/5 open');
		await runCommand(page, 'Problems: Focus on Problems View');
		await waitFor('5 entries in Problems', T.server, async () => (await problemsBadge(page)) === 5);
	});
	await step('multi-root window: restart the server twice', async () => {
		for (let i = 0; i < 2; i++) {
			await runCommand(page, 'planls: Restart Server');
			await page.waitForTimeout(500);
			await waitFor('the status bar after restart', T.server, async () => (await statusCounts(page))?.text === 'Plan 5/5 open');
		}
		for (const title of ['Service A', 'Service B']) {
			await sidebar(page).locator('.monaco-list-row', { hasText: title }).waitFor({ timeout: T.server });
		}
		await waitFor('5 entries in Problems', T.server, async () => (await problemsBadge(page)) === 5);
		const notes = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
		const bad = notes.filter((t) => /already exists|failed|not running/i.test(t));
		if (bad.length > 0) {
			throw new Error(`error notifications: ${bad.join(' | ')}`);
		}
		await shot(page, outDir, '08-multi-root');
	});
	await step('clicking the status bar item brings the Plan sidebar back', async () => {
		await page.locator('.part.activitybar [aria-label^="Explorer"]').first().click({ timeout: T.ui });
		await sidebar(page).locator('.monaco-list-row', { hasText: 'Service A' }).waitFor({ state: 'detached', timeout: T.ui });
		await page.locator('.part.statusbar .statusbar-item', { hasText: statusRe }).first().click();
		await sidebar(page).locator('.monaco-list-row', { hasText: 'Service A' }).waitFor({ timeout: T.ui });
	});
	await step('the planls.severity setting reaches the server', async () => {
		// Through the Settings editor: code-server does not notice edits to settings.json made behind its back.
		await runCommand(page, 'Preferences: Open User Settings');
		const editor = page.locator('.settings-editor');
		await editor.waitFor({ timeout: T.ui });
		await page.waitForTimeout(500);
		await page.keyboard.type('planls.severity');
		const item = editor.locator('.setting-item-enum', { hasText: 'Severity of the diagnostics' }).first();
		await item.waitFor({ timeout: T.ui });
		await item.locator('.monaco-select-box').click();
		await page.locator('.monaco-select-box-dropdown-container .monaco-list-row', { hasText: 'warning' }).first().click();
		await waitFor('the setting in settings.json', T.ui, () => JSON.parse(fs.readFileSync(settingsFile, 'utf8'))['planls.severity'] === 'warning');
		await waitFor('5 warnings in Problems', T.server, async () => (await page.locator('.markers-panel .monaco-list-row .codicon-warning').count()) === 5);
		await shot(page, outDir, '09-severity-warning');
	});
}

module.exports = { run };

/**
 * setExpanded clicks a tree group's twistie until its aria-expanded state is
 * `want`. A click that lands while the tree re-renders (a refresh from the
 * server) can be lost, so the click is repeated, each time only after the
 * previous one had time to take effect.
 */
async function setExpanded(page, group, want) {
	const state = want ? 'true' : 'false';
	await waitFor(`the group to ${want ? 'expand' : 'collapse'}`, T.ui, async () => {
		if ((await group.getAttribute('aria-expanded')) === state) {
			return true;
		}
		await group.locator('.monaco-tl-twistie').click();
		await page.waitForTimeout(400);
		return (await group.getAttribute('aria-expanded')) === state;
	});
}
