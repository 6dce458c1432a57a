// planls report in real Chromium: the page a person opens from disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { makeProject, HOSTILE } from './project.mjs';

const require = createRequire(import.meta.url);
const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const out = process.env.PLANLS_TEST_OUT || path.resolve('test-output');
fs.mkdirSync(out, { recursive: true });

// Debian's chromium with the flags this machine's closed network needs.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

let browser, forge, local, userDir;

before(async () => {
  forge = makeProject('git@github.com:acme/widgets.git');
  forge.planls('report');
  local = makeProject(null);
  local.planls('report');
  userDir = fs.mkdtempSync(path.join(out, 'chromium-profile-'));
  browser = await chromium.launchPersistentContext(userDir, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: FLAGS,
    viewport: { width: 1100, height: 900 },
  });
});

after(async () => {
  await browser?.close();
  fs.rmSync(userDir, { recursive: true, force: true });
});

/** open loads a project's report from disk and records what it asks of the network and of dialogs. */
async function open(project, opts = {}) {
  const page = await browser.newPage();
  const seen = { requests: [], dialogs: [], errors: [] };
  page.on('request', (r) => seen.requests.push(r.url()));
  page.on('dialog', (d) => { seen.dialogs.push(d.message()); d.dismiss(); });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  if (opts.scheme) await page.emulateMedia({ colorScheme: opts.scheme });
  const url = 'file://' + path.join(project.root, '.planls', 'report.html');
  await page.goto(url);
  await page.waitForSelector('ol.items > li');
  return { page, seen, url };
}

/** items is what each item shows: id, badge, subject, links, verdict and reason. */
function items(page) {
  return page.$$eval('ol.items > li', (lis) => lis.map((li) => ({
    id: Number(li.id.replace('item-', '')),
    badge: li.querySelector('.badge').textContent.trim(),
    subject: li.querySelector('.subject').textContent,
    subjectHref: li.querySelector('a.subject')?.getAttribute('href') || '',
    refs: [...li.querySelectorAll('.evidence .ref')].map((r) => ({ text: r.textContent, href: r.getAttribute('href') || '' })),
    evidence: li.querySelector('.evidence')?.textContent || '',
    verdict: li.querySelector('.verdict')?.textContent.trim() || '',
    reason: li.querySelector('.reason')?.textContent || '',
    visible: li.offsetParent !== null,
  })));
}

test('what a person sees: title, counts, groups, items with their status and proof', async () => {
  const { page, seen } = await open(forge, { scheme: 'light' });
  const e = forge.expect;
  assert.equal(await page.textContent('h1'), e.title);
  assert.equal((await page.textContent('#summary')).trim(), e.summary);
  const groups = await page.$$eval('#groups tbody tr', (trs) => trs.map((tr) => tr.innerText.split('\t').map((s) => s.trim())));
  assert.deepEqual(groups, [['Build', '3', '1', '0', '4'], ['Verify', '2', '0', '1', '3']]);

  const got = await items(page);
  assert.deepEqual(got.map((i) => [i.id, i.badge, i.subject]), e.items);
  const byId = Object.fromEntries(got.map((i) => [i.id, i]));
  const blob = `https://github.com/acme/widgets/blob/${forge.head.slice(0, 12)}/`;
  assert.equal(byId[6].subjectHref, `${blob}PLAN.md#L12`);
  // Each kind of evidence and where it links.
  assert.deepEqual(byId[1].refs, [{ text: forge.commit.slice(0, 10), href: `https://github.com/acme/widgets/commit/${forge.commit.slice(0, 12)}` }]);
  assert.deepEqual(byId[2].refs[0], { text: 'internal/ratelimit/bucket.go:12', href: `${blob}internal/ratelimit/bucket.go#L12` });
  assert.deepEqual(byId[3].refs, [{ text: 'TestBucketRefill', href: `${blob}internal/ratelimit/bucket_test.go#L6` }]);
  assert.deepEqual(byId[5].refs, [{ text: '`go test ./...`', href: '' }, { text: 'https://ci.example.com/run/7', href: 'https://ci.example.com/run/7' }]);
  for (const [id, v] of Object.entries(e.verdicts)) {
    assert.match(byId[id].verdict, new RegExp(v), `#${id} verdict`);
  }
  assert.match(byId[4].reason, /needs a load rig/);
  assert.equal(byId[6].refs.length, 0);

  const drift = await page.$$eval('#drift li', (lis) => lis.map((li) => li.textContent));
  assert.equal(drift.length, 1);
  assert.match(drift[0], new RegExp(e.drift));

  const kinds = await page.$$eval('#timeline li', (lis) => lis.map((li) => li.className.replace('ev-', '')));
  assert.deepEqual(kinds.reverse(), e.timeline);
  // The reopen of the completed #3 says why, and what its evidence was.
  const reopened = await page.$$eval('#timeline li.ev-reopened', (lis) => lis.map((li) => li.textContent));
  assert.ok(reopened.some((t) => t.includes(`#3 Unit tests for the bucket — ${e.reopen}`)), reopened.join('\n'));
  // #6 set back from in_progress to pending shows as stopped.
  const stopped = await page.$$eval('#timeline li.ev-stopped', (lis) => lis.map((li) => li.textContent));
  assert.equal(stopped.length, 1, stopped.join('\n'));
  assert.ok(stopped[0].includes('stopped#6 Review with the API team'), stopped[0]);

  // Opened from disk, it asks the network for nothing.
  assert.deepEqual(seen.requests.filter((u) => !u.startsWith('file://')), []);
  assert.deepEqual(seen.errors, []);
  await page.screenshot({ path: path.join(out, 'report-light.png'), fullPage: true });
  await page.close();
});

test('the README\'s picture: the report of a plain project', async () => {
  const plain = makeProject('git@github.com:acme/widgets.git', { hostile: false });
  plain.planls('report');
  const { page } = await open(plain, { scheme: 'light' });
  assert.equal((await page.textContent('#summary')).trim(), plain.expect.summary);
  // docs/img/report.png is this file.
  await page.screenshot({ path: path.join(out, 'report-readme.png'), fullPage: true, clip: { x: 0, y: 0, width: 1100, height: 1500 } });
  await page.close();
});

test('the burn-up chart has a point per change and a mark per approval', async () => {
  const { page } = await open(forge);
  const points = await page.$$eval('svg.chart circle.pt', (cs) => cs.map((c) => [c.dataset.scope, c.dataset.done, c.dataset.deferred].map(Number)));
  assert.deepEqual(points, forge.expect.points);
  const marks = await page.$$eval('svg.chart g.mark', (gs) => gs.map((g) => Number(g.dataset.scope)));
  assert.deepEqual(marks, forge.expect.marks);
  // The points rise left to right, and the table beside the chart says the same.
  const xs = await page.$$eval('svg.chart circle.pt', (cs) => cs.map((c) => Number(c.getAttribute('cx'))));
  assert.deepEqual([...xs].sort((a, b) => a - b), xs);
  const rows = await page.$$eval('#chart-data tbody tr', (trs) => trs.map((tr) => [...tr.cells].slice(1).map((td) => Number(td.textContent))));
  assert.deepEqual(rows, forge.expect.points);
  await page.close();
});

test('other people\'s text renders as text and links nowhere', async () => {
  for (const project of [forge, local]) {
    const { page, seen } = await open(project);
    const got = await items(page);
    const byId = Object.fromEntries(got.map((i) => [i.id, i]));
    assert.match(byId[2].evidence, /<script>window.__pwned=1;alert\('ev'\)<\/script>/);
    assert.ok(byId[4].reason.includes(`<img src=x onerror="window.__pwned=2;alert('r')"> [more](javascript:alert('why'))`), byId[4].reason);
    assert.ok(byId[7].subject.includes('<script>window.__pwned=3</script>'), byId[7].subject);
    const dom = await page.evaluate(() => ({
      pwned: window.__pwned,
      scripts: document.scripts.length,
      handlers: [...document.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => el.tagName + ' ' + a.name)),
      imgs: document.querySelectorAll('img').length,
      links: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href')),
    }));
    assert.equal(dom.pwned, undefined);
    assert.equal(dom.scripts, 1, 'only the report\'s own script');
    assert.deepEqual(dom.handlers, []);
    assert.equal(dom.imgs, 0);
    for (const href of dom.links) {
      assert.match(href, /^(#item-\d+|#items|https:\/\/github\.com\/acme\/widgets\/|https:\/\/ci\.example\.com\/|file:\/\/\/)/, `link ${href}`);
    }
    assert.deepEqual(seen.dialogs, []);
    // Clicking every link that stays in the page runs nothing either.
    await page.$$eval('a[href^="#"]', (as) => as.forEach((a) => a.click()));
    assert.deepEqual(seen.dialogs, []);
    await page.close();
  }
});

test('without a forge, evidence links the local files', async () => {
  const { page } = await open(local);
  const byId = Object.fromEntries((await items(page)).map((i) => [i.id, i]));
  const file = (rel, line) => `file://${local.root}/${rel}#L${line}`;
  assert.equal(byId[2].refs[0].href, file('internal/ratelimit/bucket.go', 12));
  assert.equal(byId[3].refs[0].href, file('internal/ratelimit/bucket_test.go', 6));
  assert.equal(byId[1].refs[0].href, '', 'a commit has no page without a forge');
  assert.equal(byId[6].subjectHref, file('PLAN.md', 12));
  await page.close();
});

test('keyboard: the filters work from the keyboard and say what they show', async () => {
  const { page } = await open(forge);
  // The skip link comes first, then the plan link, then the filters.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the items');
  let label = '';
  for (let i = 0; i < 20 && !label.startsWith('Deferred'); i++) {
    await page.keyboard.press('Tab');
    label = await page.evaluate(() => document.activeElement.textContent);
  }
  assert.match(label, /^Deferred \(1\)$/);
  await page.keyboard.press('Enter');
  let shown = (await items(page)).filter((i) => i.visible).map((i) => i.id);
  assert.deepEqual(shown, [4]);
  assert.equal(await page.getAttribute('button[data-filter="deferred"]', 'aria-pressed'), 'true');
  assert.equal(await page.textContent('#shown'), '1 of 7 items shown');
  await page.keyboard.press('Shift+Tab'); // Done
  await page.keyboard.press('Shift+Tab'); // Open
  await page.keyboard.press('Space');
  shown = (await items(page)).filter((i) => i.visible).map((i) => i.id);
  assert.deepEqual(shown, [6]);
  // Focus is visible: the focused button has an outline.
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.equal(outline, 'solid');
  await page.close();
});

test('light, dark and print: readable, and axe-core finds no serious violation', async () => {
  for (const scheme of ['light', 'dark']) {
    const { page } = await open(forge, { scheme });
    const colours = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return [s.backgroundColor, s.color];
    });
    if (scheme === 'dark') assert.deepEqual(colours, ['rgb(13, 17, 23)', 'rgb(230, 237, 243)']);
    else assert.deepEqual(colours, ['rgb(255, 255, 255)', 'rgb(27, 31, 36)']);
    // axe is evaluated through the DevTools protocol: the report's own
    // policy forbids any script it does not carry.
    await page.evaluate(axeSource);
    const res = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }));
    const serious = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    fs.writeFileSync(path.join(out, `axe-${scheme}.json`), JSON.stringify(res.violations, null, 2));
    assert.deepEqual(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.length} nodes: ${v.nodes.slice(0, 2).map((n) => n.target).join(', ')})`), [], `${scheme}: serious violations`);
    await page.screenshot({ path: path.join(out, `report-${scheme}.png`), fullPage: true });
    if (scheme === 'light') {
      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.isVisible('.filters'), false, 'print hides the filters');
      await page.screenshot({ path: path.join(out, 'report-print.png'), fullPage: true });
      await page.pdf({ path: path.join(out, 'report.pdf') });
    }
    await page.close();
  }
});

test('history missing from the clone is said at the top, readable in light and dark', async () => {
  // Every change sealed into a segment of its own; the second one removed,
  // as a clone that never got it.
  process.env.PLANLS_JOURNAL_SEAL_BYTES = '1';
  let gap;
  try {
    gap = makeProject(null, { hostile: false });
  } finally {
    delete process.env.PLANLS_JOURNAL_SEAL_BYTES;
  }
  const dir = path.join(gap.root, '.planls', 'journal');
  const segments = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl.gz')).sort();
  assert.ok(segments.length > 3, segments.join(' '));
  fs.rmSync(path.join(dir, segments[1]));
  const [, from, to] = segments[1].match(/^0*(\d+)-0*(\d+)-/);
  gap.planls('report');
  for (const scheme of ['light', 'dark']) {
    const { page } = await open(gap, { scheme });
    const note = await page.$eval('#history-missing', (el) => ({
      text: el.textContent,
      role: el.getAttribute('role'),
      beforeProgress: !!(el.compareDocumentPosition(document.getElementById('progress-h')) & Node.DOCUMENT_POSITION_FOLLOWING),
    }));
    const revs = Number(from) + 1 === Number(to) ? `revision ${to}` : `revisions ${Number(from) + 1}–${to}`;
    assert.equal(note.text, `⚠ History missing: the changes of ${revs} (no file in .planls/journal/ holds them: a sealed segment was not `
      + 'committed, or was removed). The chart, the timeline and the count of approvals leave it out; the state and the items are whole '
      + '(planls doctor names what is missing).');
    assert.equal(note.role, 'note');
    assert.ok(note.beforeProgress, 'the note comes before the progress');
    assert.ok(await page.isVisible('#history-missing'));
    await page.evaluate(axeSource);
    const res = await page.evaluate(() => window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }));
    const serious = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious.map((v) => `${v.id}: ${v.help}`), [], `${scheme}: serious violations`);
    await page.screenshot({ path: path.join(out, `report-history-missing-${scheme}.png`) });
    await page.close();
  }
  const { page } = await open(forge);
  assert.equal(await page.$$eval('#history-missing', (els) => els.length), 0, 'a whole history says nothing is missing');
  await page.close();
});

test('the HTML file is self-contained', () => {
  const html = fs.readFileSync(path.join(forge.root, '.planls', 'report.html'), 'utf8');
  assert.doesNotMatch(html, /<link|<[a-z][^>]*\ssrc=|@import|url\(/);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  assert.ok(!html.includes(HOSTILE.evidence), 'the raw hostile evidence is not in the file');
});
