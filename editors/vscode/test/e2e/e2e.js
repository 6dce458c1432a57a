#!/usr/bin/env node
// End-to-end test in a real VS Code: code-server 4.100.3 with the built
// .vsix, driven through headless Debian Chromium by playwright-core, on a
// temp git repository holding examples/basic/PLAN.md.
//
// Steps: approve the plan from the sidebar's welcome button; the Problems
// panel lists one entry per open item; complete an item from its code
// action by typing evidence; the sidebar, the status bar and Problems
// update; Escape in the Defer prompt changes nothing; restarting the server
// twice works. A screenshot per step goes to
// test-output/vscode/.
//
// Usage: node test/e2e/e2e.js <planls.vsix>
// Env: PLANLS_BIN (default <repo>/bin/planls), PLANLS_TEST_CACHE, CHROMIUM,
//      E2E_KEEP=1 keeps the temp dir.
'use strict';

const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { step, waitFor } = require('./util');

const repo = path.resolve(__dirname, '..', '..', '..', '..');
const cache = process.env.PLANLS_TEST_CACHE || path.join(os.homedir(), '.cache', 'planls-test');
const codeServer = path.join(cache, 'codeserver', 'node_modules', '.bin', 'code-server');
const planls = process.env.PLANLS_BIN || path.join(repo, 'bin', 'planls');
const outDir = path.join(repo, 'test-output', 'vscode');
const vsix = process.argv[2];
const evidence = 'e2e: verified in code-server';

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

function git(dir, ...args) {
	return execFileSync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', '-c', 'commit.gpgsign=false', ...args], {
		cwd: dir,
		encoding: 'utf8',
	}).trim();
}

/** setup makes the workspace (a git repo with PLAN.md), the user data dir and code-server's config. */
function setup(tmp) {
	const ws = path.join(tmp, 'ws');
	const data = path.join(tmp, 'data');
	fs.mkdirSync(ws, { recursive: true });
	fs.mkdirSync(path.join(data, 'User'), { recursive: true });
	fs.copyFileSync(path.join(repo, 'examples', 'basic', 'PLAN.md'), path.join(ws, 'PLAN.md'));
	// A file a completed item's evidence names (flow.js opens it from the sidebar).
	fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
	fs.writeFileSync(path.join(ws, 'notes', 'design.md'), '# Design\nbuckets refill per key\nburst of 10\n');
	git(ws, 'init', '-q');
	git(ws, 'add', 'PLAN.md');
	git(ws, 'commit', '-q', '-m', 'plan');
	const settings = {
		'planls.path': planls,
		// LSP traffic lands in the saved logs of a failed run.
		'planls.trace.server': 'messages',
		'workbench.startupEditor': 'none',
		'workbench.tips.enabled': false,
		'workbench.enableExperiments': false,
		'security.workspace.trust.enabled': false,
		'extensions.autoCheckUpdates': false,
		'extensions.autoUpdate': false,
		'extensions.ignoreRecommendations': true,
		'telemetry.telemetryLevel': 'off',
		'update.mode': 'none',
		'git.enabled': false,
		'chat.disableAIFeatures': true,
		'workbench.colorTheme': 'Default Dark Modern',
	};
	fs.writeFileSync(path.join(data, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
	const workspace = setupMultiRoot(path.join(tmp, 'multi'));
	// Without --config code-server writes ~/.config/code-server/config.yaml.
	const config = path.join(tmp, 'config.yaml');
	fs.writeFileSync(config, 'auth: none\ncert: false\n');
	return { ws, data, exts: path.join(tmp, 'exts'), config, commit: git(ws, 'rev-parse', '--short', 'HEAD'), workspace };
}

/** Two folders of one window, each its own repository with a plan approved from the CLI. */
const multiPlans = {
	'svc-a': '# Service A\n\n## Changes\n- Add the health endpoint\n- Log request ids\n',
	'svc-b': '# Service B\n\n## Changes\n- Move config to env vars\n- Drop the legacy flag\n- Document the new settings\n',
};

function setupMultiRoot(dir) {
	for (const [name, plan] of Object.entries(multiPlans)) {
		const d = path.join(dir, name);
		fs.mkdirSync(d, { recursive: true });
		fs.writeFileSync(path.join(d, 'PLAN.md'), plan);
		git(d, 'init', '-q');
		execFileSync(planls, ['approve', '--root', d, path.join(d, 'PLAN.md')], { cwd: d, stdio: 'pipe' });
	}
	const file = path.join(dir, 'planls.code-workspace');
	fs.writeFileSync(file, JSON.stringify({ folders: Object.keys(multiPlans).map((p) => ({ path: p })) }, null, 2));
	return file;
}

function baseArgs(env) {
	return ['--config', env.config, '--user-data-dir', env.data, '--extensions-dir', env.exts];
}

/** startCodeServer runs code-server in its own process group (detached = setsid) so the whole tree can be killed. */
async function startCodeServer(env, port, log) {
	const fd = fs.openSync(log, 'a');
	const args = [
		...baseArgs(env),
		'--bind-addr',
		`127.0.0.1:${port}`,
		'--auth',
		'none',
		'--disable-telemetry',
		'--disable-update-check',
		'--disable-workspace-trust',
		'--disable-getting-started-override',
		'--ignore-last-opened',
		env.ws,
	];
	// An inherited PLANLS_ROOT would point the server away from the test workspace.
	const childEnv = { ...process.env };
	delete childEnv.PLANLS_ROOT;
	const child = spawn(codeServer, args, { detached: true, stdio: ['ignore', fd, fd], env: childEnv });
	fs.closeSync(fd);
	let exited = false;
	child.on('exit', () => (exited = true));
	await waitFor('code-server to listen', 60000, async () => {
		if (exited) {
			throw new Error(`code-server exited; see ${log}`);
		}
		try {
			const res = await fetch(`http://127.0.0.1:${port}/healthz`);
			return res.ok;
		} catch {
			return false;
		}
	});
	return child;
}

/** killGroup ends code-server and every extension host it spawned. */
async function killGroup(child) {
	if (!child || child.exitCode !== null) {
		return;
	}
	const pgid = child.pid;
	const alive = () => {
		try {
			process.kill(-pgid, 0);
			return true;
		} catch {
			return false;
		}
	};
	try {
		process.kill(-pgid, 'SIGTERM');
	} catch {
		return;
	}
	const deadline = Date.now() + 5000;
	while (alive() && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 100));
	}
	if (alive()) {
		try {
			process.kill(-pgid, 'SIGKILL');
		} catch {
			// Gone between the check and the kill.
		}
	}
}

async function main() {
	if (!vsix || !fs.existsSync(vsix)) {
		throw new Error(`usage: e2e.js <planls.vsix> (got ${vsix})`);
	}
	for (const [what, p] of [
		['code-server (run scripts/install-test-deps.sh)', codeServer],
		['planls (go build -o bin/planls ./cmd/planls, or set PLANLS_BIN)', planls],
	]) {
		if (!fs.existsSync(p)) {
			throw new Error(`missing ${what}: ${p}`);
		}
	}
	fs.rmSync(outDir, { recursive: true, force: true });
	fs.mkdirSync(outDir, { recursive: true });
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'planls-vscode-e2e-'));
	// code-server (heartbeat, logs, device id) and Chromium (dconf) write under
	// the XDG dirs whatever --user-data-dir says; keep all of it in tmp.
	for (const [k, d] of [['XDG_CONFIG_HOME', 'config'], ['XDG_DATA_HOME', 'data-home'], ['XDG_CACHE_HOME', 'cache'], ['XDG_STATE_HOME', 'state']]) {
		process.env[k] = path.join(tmp, 'xdg', d);
		fs.mkdirSync(process.env[k], { recursive: true });
	}
	const env = setup(tmp);
	const log = path.join(tmp, 'code-server.log');
	let child;
	let browser;
	let ok = false;
	try {
		await step('install the .vsix', async () => {
			execFileSync(codeServer, [...baseArgs(env), '--install-extension', vsix], { stdio: 'pipe', timeout: 120000 });
		});
		const port = await freePort();
		child = await step('start code-server', () => startCodeServer(env, port, log));
		const { run } = require('./flow');
		const base = `http://127.0.0.1:${port}/`;
		browser = await run({
			url: `${base}?folder=${encodeURIComponent(env.ws)}`,
			multiUrl: `${base}?workspace=${encodeURIComponent(env.workspace)}`,
			outDir,
			commit: env.commit,
			evidence,
			settingsFile: path.join(env.data, 'User', 'settings.json'),
			ws: env.ws,
			planls,
		});
		ok = true;
	} finally {
		if (browser) {
			await browser.close().catch(() => {});
		}
		await killGroup(child);
		if (!ok) {
			saveLogs(tmp, env);
		}
		if (process.env.E2E_KEEP === '1') {
			console.log(`kept ${tmp}`);
		} else {
			fs.rmSync(tmp, { recursive: true, force: true });
		}
	}
}

/** saveLogs copies code-server's and the extension host's logs next to the screenshots for a failed run. */
function saveLogs(tmp, env) {
	try {
		fs.copyFileSync(path.join(tmp, 'code-server.log'), path.join(outDir, 'code-server.log'));
		const logs = path.join(env.data, 'logs');
		if (fs.existsSync(logs)) {
			fs.cpSync(logs, path.join(outDir, 'logs'), { recursive: true });
		}
		console.log(`logs saved under ${outDir}`);
	} catch (err) {
		console.log(`could not save logs: ${err}`);
	}
}

const started = Date.now();
main().then(
	() => {
		console.log(`e2e: PASS (${((Date.now() - started) / 1000).toFixed(1)} s, screenshots in ${outDir})`);
		process.exit(0);
	},
	(err) => {
		console.error(`e2e: FAIL: ${err && err.stack ? err.stack : err}`);
		process.exit(1);
	},
);
