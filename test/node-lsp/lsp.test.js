// A second real LSP client of `planls serve` (after the editors): the
// vscode-languageserver-protocol client over stdio, driving the approve →
// complete → CLI change flow of docs/PROTOCOL.md on a temp copy of
// examples/basic/PLAN.md. Run with `node --test` (run.sh does).
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
  CodeActionRequest, ExecuteCommandRequest, RequestType,
} = require('vscode-languageserver-protocol/node');
const { Session, cleanEnv, bin, repo } = require('./session');

// The open items of examples/basic/PLAN.md in document order: what the plan
// parser must find (Summary, Not adopted and Assumptions are context), with
// the subject as written and, where markup changes it, as people read it
// (messages and planls/plan show that).
const ITEMS = [
  { group: 'Important changes', subject: 'Add `internal/ratelimit` with a token bucket keyed by API key', shown: 'Add internal/ratelimit with a token bucket keyed by API key' },
  { group: 'Important changes', subject: 'Wire the limiter into `POST /v1/ingest` and `POST /v1/batch`', shown: 'Wire the limiter into POST /v1/ingest and POST /v1/batch' },
  { group: 'Important changes', subject: 'Read limits from `config.yaml`:', shown: 'Read limits from config.yaml:' },
  { group: 'Important changes', subject: 'Export `ingest_ratelimit_decisions_total{decision="allow|deny"}`', shown: 'Export ingest_ratelimit_decisions_total{decision="allow|deny"}' },
  { group: 'Tests and verification', subject: 'Unit tests for the bucket: refill, burst, clock going backwards' },
  { group: 'Tests and verification', subject: '`go test ./... -race` passes', shown: 'go test ./... -race passes' },
  { group: 'Tests and verification', subject: "Load test: 2 keys at 10x their rate; the quiet key's p99 latency stays under 20 ms" },
];

const PlanRequest = new RequestType('planls/plan');

const openItems = (d) => d.filter((x) => x.code === 'open-item');

function newWorkspace() {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'planls-node-lsp-')));
  fs.mkdirSync(path.join(ws, '.git'));
  fs.copyFileSync(path.join(repo, 'examples/basic/PLAN.md'), path.join(ws, 'PLAN.md'));
  return ws;
}

function readState(ws) {
  return JSON.parse(fs.readFileSync(path.join(ws, '.planls/state.json'), 'utf8'));
}

test('approve, complete and follow the CLI over a real LSP client', async (t) => {
  assert.ok(fs.existsSync(bin), `planls binary not found at ${bin}: build it or set PLANLS_BIN`);
  const ws = newWorkspace();
  const rootUri = pathToFileURL(ws).href;
  const planUri = pathToFileURL(path.join(ws, 'PLAN.md')).href;
  const text = fs.readFileSync(path.join(ws, 'PLAN.md'), 'utf8');
  const s = new Session(ws);
  t.after(() => {
    if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
    fs.rmSync(ws, { recursive: true, force: true });
  });
  try {
    const init = await s.request(InitializeRequest.type, {
      processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'ws' }],
      capabilities: {
        textDocument: { publishDiagnostics: { relatedInformation: true, tagSupport: { valueSet: [1, 2] } },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } } } },
        workspace: { workspaceFolders: true, executeCommand: {} },
      },
    }, 'initialize');
    const cmds = (init.capabilities.executeCommandProvider || {}).commands || [];
    for (const c of ['planls.complete', 'planls.defer', 'planls.start', 'planls.reopen', 'planls.approve', 'planls.todo']) {
      assert.ok(cmds.includes(c), `server does not offer ${c}: ${cmds}`);
    }
    await s.conn.sendNotification(InitializedNotification.type, {});
    await s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: planUri, languageId: 'markdown', version: 1, text },
    });

    // 1. Not approved yet: one plan-not-approved diagnostic, no items.
    let d = await s.waitDiags(planUri, (x) => x.some((y) => y.code === 'plan-not-approved'), 'plan-not-approved');
    assert.equal(openItems(d).length, 0);
    const notApproved = d.find((y) => y.code === 'plan-not-approved');
    assert.equal(notApproved.source, 'planls');
    let plan = await s.request(PlanRequest, { uri: rootUri }, 'planls/plan');
    assert.equal(plan.approved, false);
    assert.equal(plan.exists, true);
    assert.ok(plan.groups.flatMap((g) => g.items).every((i) => i.status === 'draft' && i.id === 0), 'draft items have id 0');

    // 2. Approve through the code action's command.
    const actions = await s.request(CodeActionRequest.type, {
      textDocument: { uri: planUri }, range: notApproved.range, context: { diagnostics: [notApproved] },
    }, 'codeAction on plan-not-approved');
    const approve = actions.find((a) => a.title === 'Approve plan');
    assert.ok(approve, `no "Approve plan" action in ${JSON.stringify(actions)}`);
    assert.equal(approve.kind, 'source.approve');
    assert.equal(approve.command.command, 'planls.approve');
    assert.deepEqual(approve.command.arguments, [{ uri: planUri }]);
    await s.request(ExecuteCommandRequest.type, { command: approve.command.command, arguments: approve.command.arguments }, 'planls.approve');

    // 3. One open-item diagnostic per item, on its line.
    d = await s.waitDiags(planUri, (x) => openItems(x).length === ITEMS.length && !x.some((y) => y.code === 'plan-not-approved'), 'one open-item per plan item');
    const lines = text.split('\n');
    openItems(d).sort((a, b) => a.data.id - b.data.id).forEach((diag, i) => {
      const id = i + 1;
      assert.deepEqual(diag.data, { id, code: 'open-item' });
      assert.equal(diag.source, 'planls');
      assert.equal(diag.message, `open plan item #${id} (pending): ${ITEMS[i].shown || ITEMS[i].subject}`);
      const line = lines[diag.range.start.line];
      assert.ok(line.includes(ITEMS[i].subject), `diagnostic #${id} is on "${line}"`);
      assert.equal(diag.range.start.line, diag.range.end.line);
    });

    // 4. planls/plan shape.
    plan = await s.request(PlanRequest, { uri: rootUri }, 'planls/plan');
    assert.equal(plan.root, rootUri);
    assert.equal(plan.planUri, planUri);
    assert.equal(plan.exists, true);
    assert.equal(plan.approved, true);
    assert.equal(plan.needsReapproval, false);
    assert.equal(plan.title, 'Add per-client rate limiting to the ingest API');
    assert.equal(plan.open, ITEMS.length);
    assert.equal(plan.total, ITEMS.length);
    assert.equal(plan.stateError, '');
    assert.deepEqual(plan.groups.map((g) => g.name), ['Important changes', 'Tests and verification']);
    const items = plan.groups.flatMap((g) => g.items);
    assert.deepEqual(items.map((i) => i.subject), ITEMS.map((i) => i.shown || i.subject));
    items.forEach((it, i) => {
      // Fields at their empty value are left out (false, [], "", null):
      // a pending item that nothing blocks has no evidence, reason, owner,
      // verify or evidenceRefs to send.
      assert.deepEqual(Object.keys(it).sort(), ['drift', 'id', 'range', 'status', 'subject']);
      assert.equal(it.id, i + 1);
      assert.equal(it.status, 'pending');
      assert.equal(it.drift, 'same');
      assert.ok(lines[it.range.start.line].includes(ITEMS[i].subject), `item ${it.id} range`);
    });

    // 5. Complete #1 through its code action, adding the evidence as a
    // client plugin does after prompting.
    const diag1 = openItems(d).find((x) => x.data.id === 1);
    const itemActions = await s.request(CodeActionRequest.type, {
      textDocument: { uri: planUri }, range: diag1.range, context: { diagnostics: [diag1] },
    }, 'codeAction on #1');
    const complete = itemActions.find((a) => a.title === 'Complete #1\u2026');
    assert.ok(complete, `no "Complete #1…" in ${JSON.stringify(itemActions.map((a) => a.title))}`);
    assert.equal(complete.command.command, 'planls.complete');
    assert.deepEqual(complete.command.arguments, [{ id: 1, uri: planUri }]);
    const env = await s.request(ExecuteCommandRequest.type, {
      command: 'planls.complete', arguments: [{ ...complete.command.arguments[0], evidence: 'go test ./internal/ratelimit: 12 passed' }],
    }, 'planls.complete');
    assert.equal(env.content[0].type, 'text');
    assert.equal(env.content[0].text, 'Updated #1 (pending → completed)');
    assert.ok(Array.isArray(env.details.tasks));

    let st = readState(ws);
    const t1 = st.tasks.find((x) => x.id === 1);
    assert.equal(t1.status, 'completed');
    assert.equal(t1.evidence, 'go test ./internal/ratelimit: 12 passed');
    assert.equal(t1.source, 'plan');
    d = await s.waitDiags(planUri, (x) => openItems(x).length === ITEMS.length - 1 && !openItems(x).some((y) => y.data.id === 1), '#1 closed');

    // 6. Another writer: the CLI completes #2; the server sees the state file change.
    const cli = cp.spawnSync(bin, ['todo', 'complete', '2', '--evidence', 'curl shows 429 with Retry-After'], { cwd: ws, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(cli.status, 0, `planls todo complete: ${cli.stderr}`);
    assert.equal(cli.stdout.trim(), 'Updated #2 (pending → completed)');
    d = await s.waitDiags(planUri, (x) => openItems(x).length === ITEMS.length - 2 && !openItems(x).some((y) => y.data.id === 2), 'CLI change reaches diagnostics');

    // ...a CLI deferral removes #3's diagnostic and a reopen brings it back.
    const defer = cp.spawnSync(bin, ['todo', 'defer', '3', '--reason', 'limits stay hard-coded for now'], { cwd: ws, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(defer.status, 0, `planls todo defer: ${defer.stderr}`);
    d = await s.waitDiags(planUri, (x) => !openItems(x).some((y) => y.data.id === 3), 'CLI deferral reaches diagnostics');
    const reopen = cp.spawnSync(bin, ['todo', 'reopen', '3'], { cwd: ws, env: cleanEnv(), encoding: 'utf8' });
    assert.equal(reopen.status, 0, `planls todo reopen: ${reopen.stderr}`);
    d = await s.waitDiags(planUri, (x) => openItems(x).some((y) => y.data.id === 3), 'CLI reopen reaches diagnostics');
    assert.equal(openItems(d).length, ITEMS.length - 2);

    plan = await s.request(PlanRequest, { uri: rootUri }, 'planls/plan after changes');
    assert.equal(plan.open, ITEMS.length - 2);
    const byID = new Map(plan.groups.flatMap((g) => g.items).map((i) => [i.id, i]));
    assert.equal(byID.get(1).status, 'completed');
    assert.equal(byID.get(1).evidence, 'go test ./internal/ratelimit: 12 passed');
    assert.equal(byID.get(2).status, 'completed');
    assert.equal(byID.get(3).status, 'pending');
    assert.equal(byID.get(3).reason, undefined, 'a reopened item has no reason');

    st = readState(ws);
    assert.equal(st.tasks.find((x) => x.id === 2).evidence, 'curl shows 429 with Retry-After');
    assert.equal(st.tasks.find((x) => x.id === 3).status, 'pending');

    const exit = await s.close();
    assert.deepEqual(exit, { code: 0, signal: null }, 'server exits 0 after shutdown + exit');
  } catch (e) {
    e.message += `\n--- planls serve stderr ---\n${s.stderr.slice(-3000)}`;
    throw e;
  }
});

// approvedSession starts a server on a fresh copy of the plan, opens it and
// approves it through the planls.approve command.
async function approvedSession(t) {
  assert.ok(fs.existsSync(bin), `planls binary not found at ${bin}: build it or set PLANLS_BIN`);
  const ws = newWorkspace();
  const rootUri = pathToFileURL(ws).href;
  const planUri = pathToFileURL(path.join(ws, 'PLAN.md')).href;
  const text = fs.readFileSync(path.join(ws, 'PLAN.md'), 'utf8');
  const s = new Session(ws);
  t.after(async () => {
    if (s.proc.exitCode === null) {
      await s.close().catch(() => {});
    }
    fs.rmSync(ws, { recursive: true, force: true });
  });
  await s.request(InitializeRequest.type, {
    processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'ws' }],
    capabilities: { textDocument: { publishDiagnostics: {} }, workspace: { workspaceFolders: true } },
  }, 'initialize');
  await s.conn.sendNotification(InitializedNotification.type, {});
  await s.conn.sendNotification(DidOpenTextDocumentNotification.type, {
    textDocument: { uri: planUri, languageId: 'markdown', version: 1, text },
  });
  await s.request(ExecuteCommandRequest.type, { command: 'planls.approve', arguments: [{ uri: planUri }] }, 'planls.approve');
  await s.waitDiags(planUri, (x) => openItems(x).length === ITEMS.length, 'approved');
  return { s, ws, rootUri, planUri };
}

// errorText reads the seed error of a command answered either as an
// envelope or as a JSON-RPC error.
async function commandError(p) {
  try {
    const env = await p;
    return env && env.content && env.content[0] && env.content[0].text;
  } catch (e) {
    return `Error: ${e.message}`;
  }
}

test('complete without evidence is refused with the seed error and explained', async (t) => {
  const { s, ws, planUri } = await approvedSession(t);
  const text = await commandError(s.conn.sendRequest(ExecuteCommandRequest.type, { command: 'planls.complete', arguments: [{ id: 4, uri: planUri }] }));
  assert.match(text || '', /^Error: evidence required to mark a task completed: /);
  await s.waitFor(() => s.messages.some((m) => /evidence/.test(m.message)), 'window/showMessage saying how to pass evidence');
  assert.equal(readState(ws).tasks.find((x) => x.id === 4).status, 'pending');
  const d = await s.waitDiags(planUri, (x) => openItems(x).length === ITEMS.length, 'unchanged');
  assert.ok(openItems(d).some((x) => x.data.id === 4));
});

test('defer with a reason and start through commands; planls.todo runs any call', async (t) => {
  const { s, ws, planUri } = await approvedSession(t);
  const before = s.stateChanges.length;
  let env = await s.request(ExecuteCommandRequest.type, { command: 'planls.defer', arguments: [{ id: 7, uri: planUri, reason: 'no load-test rig yet' }] }, 'planls.defer');
  assert.equal(env.content[0].text, 'Updated #7 (pending → deferred). Tell the user this plan item is descoped and why: no load-test rig yet');
  await s.waitDiags(planUri, (x) => !openItems(x).some((y) => y.data.id === 7), '#7 deferred');

  env = await s.request(ExecuteCommandRequest.type, { command: 'planls.start', arguments: [{ id: 6, uri: planUri }] }, 'planls.start');
  assert.equal(env.content[0].text, 'Updated #6 (pending → in_progress)');
  const d = await s.waitDiags(planUri, (x) => x.some((y) => y.code === 'in-progress' && y.data.id === 6), '#6 in progress');
  const inProgress = d.find((y) => y.code === 'in-progress');
  assert.equal(inProgress.message, 'plan item #6 in progress: go test ./... -race passes');

  env = await s.request(ExecuteCommandRequest.type, { command: 'planls.todo', arguments: [{ params: { action: 'list', status: 'deferred' } }] }, 'planls.todo');
  assert.match(env.content[0].text, /\[deferred\] #7 Load test: .*\n {4}deferred: no load-test rig yet/);
  assert.equal(env.details.action, 'list');

  const st = readState(ws);
  assert.equal(st.tasks.find((x) => x.id === 7).reason, 'no load-test rig yet');
  await s.waitFor(() => s.stateChanges.length > before, 'planls/stateChanged after a change');
  const last = s.stateChanges[s.stateChanges.length - 1];
  assert.equal(last.root, pathToFileURL(ws).href);
  assert.equal(typeof last.revision, 'number');
});
