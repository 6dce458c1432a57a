// The LSP session the node tests drive: one `planls serve` process of the
// real binary over stdio, with the vscode-languageserver-protocol client.
// It keeps the latest diagnostics per URI and every publish in order, and
// lets a test wait for a condition on them (a wait is for an event).
'use strict';

const cp = require('node:child_process');
const path = require('node:path');
const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  PublishDiagnosticsNotification, ShutdownRequest, ExitNotification,
} = require('vscode-languageserver-protocol/node');

const repo = path.resolve(__dirname, '../..');
const bin = process.env.PLANLS_BIN || path.join(repo, 'bin/planls');
const WAIT_MS = 10000;

function withTimeout(p, what, ms = WAIT_MS) {
  let timer;
  const t = new Promise((_, rej) => { timer = setTimeout(() => rej(new Error(`${what}: no answer within ${ms} ms`)), ms); timer.unref(); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

// Session wraps one `planls serve` process and its connection, keeping the
// latest diagnostics per URI and letting a test wait for a condition on them.
class Session {
  constructor(ws) {
    this.ws = ws;
    this.stderr = '';
    this.proc = cp.spawn(bin, ['serve'], { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'], env: cleanEnv() });
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    this.conn = createProtocolConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(this.proc.stdin));
    this.diags = new Map();
    this.pubs = [];
    this.waiters = [];
    this.conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.diags.set(p.uri, p.diagnostics);
      this.pubs.push(p);
      for (const w of [...this.waiters]) w();
    });
    this.messages = [];
    this.stateChanges = [];
    this.conn.onNotification('window/showMessage', (p) => { this.messages.push(p); for (const w of [...this.waiters]) w(); });
    this.conn.onNotification('planls/stateChanged', (p) => { this.stateChanges.push(p); for (const w of [...this.waiters]) w(); });
    this.conn.onRequest('window/workDoneProgress/create', () => null);
    this.registrations = [];
    this.conn.onRequest('client/registerCapability', (p) => { this.registrations.push(p); for (const w of [...this.waiters]) w(); return null; });
    this.conn.onRequest('workspace/configuration', (p) => p.items.map(() => null));
    this.conn.listen();
  }

  // waitDiags resolves with uri's diagnostics once pred(diagnostics) holds.
  waitDiags(uri, pred, what) {
    return withTimeout(new Promise((resolve) => {
      const check = () => {
        const d = this.diags.get(uri);
        if (d && pred(d)) {
          this.waiters = this.waiters.filter((w) => w !== check);
          resolve(d);
          return true;
        }
        return false;
      };
      if (!check()) this.waiters.push(check);
    }), `diagnostics: ${what}; last: ${JSON.stringify(this.diags.get(uri) || null).slice(0, 600)}`);
  }

  // waitFor resolves once pred() holds, re-checked on every notification.
  waitFor(pred, what) {
    return withTimeout(new Promise((resolve) => {
      const check = () => {
        const v = pred();
        if (v) {
          this.waiters = this.waiters.filter((w) => w !== check);
          resolve(v);
          return true;
        }
        return false;
      };
      if (!check()) this.waiters.push(check);
    }), what);
  }

  request(type, params, what) { return withTimeout(this.conn.sendRequest(type, params), what); }

  async close() {
    try {
      await this.request(ShutdownRequest.type, undefined, 'shutdown');
      await this.conn.sendNotification(ExitNotification.type);
      return await withTimeout(this.exited, 'server exit after exit notification');
    } finally {
      this.conn.dispose();
      if (this.proc.exitCode === null) this.proc.kill('SIGKILL');
    }
  }
}

function cleanEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PLANLS_')));
}

module.exports = { Session, withTimeout, cleanEnv, bin, repo };
