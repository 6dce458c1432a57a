// Each against the real `planls serve` over
// stdio: what real editors, agents and file systems did to planls.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const cp = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const {
  InitializeRequest, InitializedNotification, DidOpenTextDocumentNotification,
  ExecuteCommandRequest, RequestType,
} = require('vscode-languageserver-protocol/node');
const { Session, cleanEnv, bin, repo } = require('./session');

const PlanRequest = new RequestType('planls/plan');
const ITEMS = 7; // plan items of examples/basic/PLAN.md
const openish = (d) => d.filter((x) => x.code === 'open-item' || x.code === 'in-progress').length;
const inProgress = (d) => d.filter((x) => x.code === 'in-progress').length;

// workspace makes a git repository named name (under a temp dir) holding
// examples/basic/PLAN.md, optionally with a UTF-8 BOM, approved by the CLI.
function workspace(t, name, { bom = false } = {}) {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'planls-field-')));
  t.after(() => fs.rmSync(parent, { recursive: true, force: true }));
  const ws = path.join(parent, name);
  fs.mkdirSync(path.join(ws, '.git'), { recursive: true });
  const text = fs.readFileSync(path.join(repo, 'examples/basic/PLAN.md'), 'utf8');
  fs.writeFileSync(path.join(ws, 'PLAN.md'), (bom ? '\ufeff' : '') + text);
  planls(ws, 'approve');
  return { ws, text, rootUri: pathToFileURL(ws).href, planUri: pathToFileURL(path.join(ws, 'PLAN.md')).href };
}

function planls(ws, ...args) {
  const r = cp.spawnSync(bin, args, { cwd: ws, env: cleanEnv(), encoding: 'utf8' });
  assert.equal(r.status, 0, `planls ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

// start runs a session on w with the given client capabilities and waits
// for the approved plan's diagnostics.
async function start(t, w, capabilities = {}) {
  const s = new Session(w.ws);
  t.after(async () => {
    if (s.proc.exitCode === null) {
      await s.close().catch(() => {});
    }
  });
  await s.request(InitializeRequest.type, {
    processId: process.pid, rootUri: w.rootUri, workspaceFolders: [{ uri: w.rootUri, name: 'ws' }],
    capabilities: { textDocument: { publishDiagnostics: {} }, ...capabilities },
  }, 'initialize');
  await s.conn.sendNotification(InitializedNotification.type, {});
  await s.waitDiags(w.planUri, (d) => openish(d) === ITEMS, 'the approved plan');
  await s.waitFor(() => s.stateChanges.length > 0, 'the first planls/stateChanged (it follows the diagnostics)');
  await settle(s, w);
  return s;
}

// settle waits until planls/plan is no longer pending: the server's
// background look-up of HEAD and of the evidence has landed, and its
// planls/stateChanged has come.
async function settle(s, w) {
  for (;;) {
    const seen = s.stateChanges.length;
    const plan = await s.request(PlanRequest, { uri: w.rootUri }, 'planls/plan');
    if (!plan.pending) {
      return plan;
    }
    await s.waitFor(() => s.stateChanges.length > seen, 'the background refresh');
  }
}

// Item 2: a project path with glob metacharacters; planls's own watcher
// still sees the CLI's change.
test('a project in "client [acme] *?" follows CLI changes', async (t) => {
  const w = workspace(t, 'client [acme] *?');
  const s = await start(t, w);
  planls(w.ws, 'todo', 'start', '2');
  await s.waitDiags(w.planUri, (d) => inProgress(d) === 1, 'the CLI start of #2');
  // Every publish is under the client's spelling of the folder (node keeps
  // "*" where Go writes "%2A"), so no second spelling of PLAN.md gets, or
  // clears, a list of its own.
  assert.deepEqual([...new Set(s.pubs.map((p) => p.uri))], [w.planUri]);
});

// Item 6: a client that accepts the watch registration but never reports
// state.json replaced by rename (eglot 1.9, coc.nvim).
test('a client whose own watcher stays silent still sees CLI changes', async (t) => {
  const w = workspace(t, 'proj');
  const s = await start(t, w, { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } });
  await s.waitFor(() => s.registrations.length > 0, 'the watch registration');
  const before = s.stateChanges.length;
  planls(w.ws, 'todo', 'start', '2');
  await s.waitDiags(w.planUri, (d) => inProgress(d) === 1, 'the CLI start of #2, no client event');
  planls(w.ws, 'todo', 'start', '3');
  await s.waitDiags(w.planUri, (d) => inProgress(d) === 2, 'the CLI start of #3');
  await s.waitFor(() => s.stateChanges.length - before >= 2, 'planls/stateChanged for both');
  await s.request(PlanRequest, { uri: w.rootUri }, 'planls/plan');
  assert.equal(s.stateChanges.length - before, 2, 'one planls/stateChanged per change');
});

// Item 5: a save that renames PLAN.md away and writes a new file later,
// empty at first.
test('a rename-and-recreate save of PLAN.md publishes nothing in between', async (t) => {
  const w = workspace(t, 'proj');
  const s = await start(t, w);
  const plan = path.join(w.ws, 'PLAN.md');
  const seen = s.pubs.length;
  const changes = s.stateChanges.length;
  fs.renameSync(plan, plan + '~');
  // The editor's gaps (the input, not a wait for planls): longer than the
  // server's 40 ms debounce, well inside its 500 ms settle window.
  await new Promise((r) => setTimeout(r, 60));
  fs.writeFileSync(plan, '');
  await new Promise((r) => setTimeout(r, 40));
  fs.writeFileSync(plan, w.text);
  fs.rmSync(plan + '~');
  planls(w.ws, 'todo', 'start', '2');
  await s.waitDiags(w.planUri, (d) => inProgress(d) === 1, 'the CLI change after the save');
  await s.request(PlanRequest, { uri: w.rootUri }, 'planls/plan');
  for (const p of s.pubs.slice(seen)) {
    assert.equal(p.uri, w.planUri);
    assert.equal(openish(p.diagnostics), ITEMS, `a publish during the save: ${JSON.stringify(p.diagnostics.map((d) => d.code))}`);
  }
  assert.equal(s.stateChanges.length - changes, 1, 'only the CLI change is a change');
});

// Item 7: PLAN.md saved with a BOM, the buffer sent without it.
test('a BOM on disk and none in the buffer is the approved plan', async (t) => {
  const w = workspace(t, 'proj', { bom: true });
  const s = await start(t, w);
  await s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: w.planUri, languageId: 'markdown', version: 1, text: w.text },
  });
  await s.waitDiags(w.planUri, (d) => openish(d) === ITEMS, 'the open buffer');
  const plan = await s.request(PlanRequest, { uri: w.rootUri }, 'planls/plan');
  assert.equal(plan.approved, true);
  assert.equal(plan.needsReapproval, false);
  const res = await s.request(ExecuteCommandRequest.type, { command: 'planls.approve', arguments: [{ uri: w.planUri }] }, 'planls.approve');
  assert.ok(!JSON.stringify(res).includes('unsaved changes'), JSON.stringify(res));
});
