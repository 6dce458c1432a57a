// Drives the MCP inspector CLI against `$PLANLS_BIN mcp` on temp workspaces
// and checks every answer. Run by run.sh (which installs the inspector).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, existsSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.PLANLS_BIN;
const cli = join(here, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PLANLS_')));

let passed = 0;
let failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail === undefined ? '' : `\n     ${detail}`}`);
  }
}

function newWorkspace() {
  const dir = mkdtempSync(join(tmpdir(), 'planls-inspector-'));
  mkdirSync(join(dir, '.git'));
  return dir;
}

// inspector runs the inspector CLI once; serverArgs follow the binary,
// rest are the inspector's own (--method ...). Returns the parsed JSON.
function inspector(serverArgs, rest, cwd) {
  const r = spawnSync(process.execPath, [cli, bin, 'mcp', ...serverArgs, ...rest], { cwd, env, encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) {
    return { failedRun: `exit ${r.status}: ${r.stderr || r.stdout}` };
  }
  try {
    return JSON.parse(r.stdout);
  } catch (e) {
    return { failedRun: `not JSON: ${r.stdout}` };
  }
}

function call(root, args, extraServerArgs = [], cwd = root) {
  const rest = ['--method', 'tools/call', '--tool-name', 'todo'];
  for (const [k, v] of Object.entries(args)) {
    rest.push('--tool-arg', `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  }
  const serverArgs = root ? ['--root', root, ...extraServerArgs] : extraServerArgs;
  return inspector(serverArgs, rest, cwd);
}

const text = (res) => (res.content && res.content[0] && res.content[0].text) || res.failedRun || '';
const show = (res) => JSON.stringify(res).slice(0, 400);
// The details snapshot: in _meta by default (structuredContent only with
// --structured-content always, since agents show structuredContent to the
// model instead of the text).
const details = (res) => (res._meta && res._meta['planls/details']) || undefined;

const ws = newWorkspace();
try {
  // tools/list
  const list = inspector(['--root', ws], ['--method', 'tools/list'], ws);
  const tools = list.tools || [];
  check('tools/list offers exactly the todo tool', tools.length === 1 && tools[0].name === 'todo', show(list));
  const props = (tools[0] && tools[0].inputSchema && tools[0].inputSchema.properties) || {};
  const fields = ['action', 'ops', 'id', 'subject', 'evidence', 'reason', 'status', 'todo_id', 'content', 'priority',
    'due_at', 'item_status', 'limit', 'cursor', 'client_mutation_id', 'expected_version', 'confirm_delete_all', 'project_id'];
  const missing = fields.filter((f) => !(f in props));
  check('input schema covers both seeds', missing.length === 0, `missing: ${missing}`);
  check('description tells the agent to list first and close with evidence',
    /list/.test(tools[0]?.description || '') && /evidence/.test(tools[0]?.description || ''), tools[0]?.description);

  // tools/call: the seed's strings, through a real third-party client
  let r = call(ws, { action: 'create', subject: 'Write the parser' });
  check('create', text(r) === 'Created #1: Write the parser (pending)' && !r.isError, show(r));
  check('create details in _meta, no structuredContent', details(r) && details(r).action === 'create' && details(r).nextId === 2
    && details(r).tasks.length === 1 && r.structuredContent === undefined, show(r));

  r = call(ws, { action: 'update', id: 1, status: 'completed' });
  check('complete without evidence is an in-band error', r.isError === true
    && text(r) === "Error: evidence required to mark a task completed: pass evidence with the check that proves it (command + result, commit, or test name). If it isn't done, leave it open"
    && details(r).error === text(r).slice('Error: '.length) && r.structuredContent === undefined, show(r));

  r = call(ws, { action: 'update', id: 1, status: 'in_progress' });
  check('start', text(r) === 'Updated #1 (pending → in_progress)', show(r));

  r = call(ws, { action: 'complete', id: 1, evidence: 'go test ./... ok' });
  check('complete action with evidence', !r.isError && text(r) === 'Updated #1 (in_progress → completed)', show(r));

  // Over MCP list rows are one line unless fields asks for more.
  r = call(ws, { ops: [{ action: 'create', subject: 'b' }, { action: 'list' }, { action: 'list', fields: ['evidence'] }] });
  check('ops batch', text(r) === 'Applied 3 ops\n[0] Created #2: b (pending)\n[1] [completed] #1 Write the parser\n[pending] #2 b\n[2] [completed] #1 Write the parser\n    evidence: go test ./... ok\n[pending] #2 b', show(r));

  r = call(ws, { action: 'delete_all' });
  check('delete_all without confirm_delete_all is refused', r.isError === true && /confirm_delete_all/.test(text(r)), show(r));

  r = call(ws, { action: 'delete_all', confirm_delete_all: true }, ['--no-delete-all']);
  check('--no-delete-all refuses even a confirmed delete_all', r.isError === true, show(r));

  r = call(ws, { action: 'list', project_id: 'not-this-one' });
  check('foreign project_id is refused', r.isError === true && /project_id/.test(text(r)), show(r));

  r = call(ws, { action: 'list', limit: 1 });
  check('paged list', details(r) && details(r).total === 2 && !!details(r).nextCursor
    && text(r).split('\n').filter((l) => l.startsWith('[')).length === 1, show(r));

  r = call(ws, { action: 'get', id: 1 }, ['--structured-content', 'always']);
  check('--structured-content always: the details as structuredContent', r.structuredContent && r.structuredContent.action === 'get'
    && details(r) === undefined && /^#1 /.test(text(r)), show(r));

  r = call(ws, { action: 'create', subject: 'c' }, ['--read-only']);
  check('--read-only refuses a change', r.isError === true && /read-only/i.test(text(r)), show(r));

  const state = JSON.parse(readFileSync(join(ws, '.planls/state.json'), 'utf8'));
  check('state file holds the changes', state.tasks.length === 2 && state.tasks[0].status === 'completed'
    && state.tasks[0].evidence === 'go test ./... ok', JSON.stringify(state).slice(0, 300));

  // Weak evidence: the seed's text stays content[0]; the warning is content[1].
  r = call(ws, { action: 'complete', id: 2, evidence: 'works now' });
  check('weak evidence is a second text block', !r.isError && text(r) === 'Updated #2 (pending → completed)'
    && r.content.length === 2 && r.content[1].type === 'text'
    && r.content[1].text.startsWith('weak-evidence: #2 is completed with weak evidence "works now", which names nothing planls can check.'), show(r));

  // Started in / with no root: a clear error, nothing created
  const hadRootState = existsSync('/.planls');
  r = call('', { action: 'list' }, [], '/');
  check('no project: clear error naming where it looked', r.isError === true
    && /no planls project found/.test(text(r)) && /working directory \//.test(text(r)), show(r));
  check('no project: nothing created in /', hadRootState || !existsSync('/.planls'));
} finally {
  rmSync(ws, { recursive: true, force: true });
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
