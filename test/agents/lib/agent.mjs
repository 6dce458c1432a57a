// Helpers for driving the real agents: scratch homes and projects, a clean
// environment that reaches nothing but 127.0.0.1, tmux for the TUI, and
// readers for what an agent sent the model.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { within } from "./model.mjs";

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const planls = process.env.PLANLS_BIN || join(repo, "bin/planls");
const cache = process.env.PLANLS_TEST_CACHE || join(process.env.HOME, ".cache/planls-test");
const bins = join(cache, "agents/node_modules/.bin");
export const claudeBin = join(bins, "claude");
export const codexBin = join(bins, "codex");
export const outDir = join(repo, "test-output/agents");
mkdirSync(outDir, { recursive: true });

const scratchDirs = [];
/** scratch makes a temporary directory, removed at exit unless a test failed (its logs are there). */
export const scratch = (name) => {
	const d = mkdtempSync(join(tmpdir(), `planls-${name}-`));
	scratchDirs.push(d);
	return d;
};
process.on("exit", (code) => {
	if (code === 0 && !process.exitCode) for (const d of scratchDirs) rmSync(d, { recursive: true, force: true });
});

/** project makes a git repository holding files ({path: text}). */
export function project(files = {}) {
	const dir = scratch("proj");
	execFileSync("git", ["init", "-q", "-b", "main", dir]);
	for (const [p, text] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, p)), { recursive: true });
		writeFileSync(join(dir, p), text);
	}
	return dir;
}

/** run runs planls in dir and returns its stdout. */
export const run = (dir, ...args) => execFileSync(planls, args, { cwd: dir, encoding: "utf8", env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });

/**
 * cleanEnv is the environment an agent runs with: nothing inherited from
 * the coding session that runs the tests (ANTHROPIC_*, CLAUDE_*, CODEX_*,
 * OPENAI_*), planls on PATH, and every proxy pointing at a closed port on
 * 127.0.0.1, so a request for anything but the model server on 127.0.0.1
 * fails here instead of leaving the machine.
 */
export function cleanEnv(extra = {}) {
	const env = {};
	for (const k of ["LANG", "LC_ALL", "TMPDIR", "USER", "LOGNAME", "SHELL"]) if (process.env[k]) env[k] = process.env[k];
	const path = [dirname(planls), ...(process.env.PATH || "/usr/bin:/bin").split(":").filter((d) => d && !d.includes("planls-test/agents"))];
	Object.assign(env, {
		PATH: path.join(":"),
		TERM: "xterm-256color",
		HTTP_PROXY: "http://127.0.0.1:9",
		HTTPS_PROXY: "http://127.0.0.1:9",
		http_proxy: "http://127.0.0.1:9",
		https_proxy: "http://127.0.0.1:9",
		NO_PROXY: "127.0.0.1,localhost",
		no_proxy: "127.0.0.1,localhost",
		DISABLE_AUTOUPDATER: "1",
		DISABLE_TELEMETRY: "1",
		DISABLE_ERROR_REPORTING: "1",
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
	});
	return { ...env, ...extra };
}

/** claudeHome makes a HOME whose .claude.json skips the first-run screens for dir. */
export function claudeHome(dir, key) {
	const home = scratch("home");
	writeFileSync(join(home, ".claude.json"), JSON.stringify({
		hasCompletedOnboarding: true,
		projects: { [dir]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
		customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
	}));
	return home;
}

/** sh runs a command and returns what it printed (both streams), or throws with it. */
export function sh(cmd, args, opts) {
	try {
		return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120000, ...opts });
	} catch (e) {
		throw new Error(`${cmd} ${args.join(" ")}: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
	}
}

/** spawnAgent starts an agent process and collects its output. */
export function spawnAgent(cmd, args, opts) {
	const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"], ...opts });
	const out = { stdout: "", stderr: "" };
	child.stdout.on("data", (d) => (out.stdout += d));
	child.stderr.on("data", (d) => (out.stderr += d));
	out.exited = new Promise((r) => child.on("exit", (code, signal) => r({ code, signal })));
	out.child = child;
	return out;
}

/** A tmux server of its own (-L) running one command in a 160x50 window. */
export class Tmux {
	constructor(name) {
		this.sock = `planls-${name}-${process.pid}`;
	}
	tmux(...args) {
		return execFileSync("tmux", ["-L", this.sock, ...args], { encoding: "utf8" });
	}
	start(cwd, env, argv) {
		const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
		const line = ["env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv].map(quote).join(" ");
		this.tmux("new-session", "-d", "-x", "160", "-y", "50", "-c", cwd, line);
		this.tmux("set-option", "-g", "remain-on-exit", "on");
	}
	screen() {
		return this.tmux("capture-pane", "-p", "-t", "0");
	}
	keys(...k) {
		this.tmux("send-keys", "-t", "0", ...k);
	}
	type(text) {
		this.tmux("send-keys", "-t", "0", "-l", text);
	}
	/** waitFor polls the screen until re matches (bounded by ms). */
	async waitFor(re, ms = 90000) {
		const end = Date.now() + ms;
		let s = "";
		while (Date.now() < end) {
			s = this.screen();
			if (re.test(s)) return s;
			await new Promise((r) => setTimeout(r, 150));
		}
		throw new Error(`the screen never showed ${re} in ${ms} ms; it shows:\n${s}`);
	}
	kill() {
		let sock;
		try {
			sock = this.tmux("display-message", "-p", "#{socket_path}").trim();
			this.tmux("kill-server");
		} catch {}
		// kill-server leaves the socket file behind.
		if (sock) rmSync(sock, { force: true });
	}
}

/** waitUntil polls f (bounded by ms) until it returns a truthy value. */
export async function waitUntil(what, f, ms = 90000) {
	return within(ms, what, (async () => {
		for (;;) {
			const v = f();
			if (v) return v;
			await new Promise((r) => setTimeout(r, 100));
		}
	})());
}

/** text of a message's content: a string, or the text of its blocks. */
export function textOf(content) {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((b) => (typeof b === "string" ? b : b.text ?? textOf(b.content) ?? "")).join("\n");
}

/** toolResult finds the tool_result for id in an Anthropic request. */
export function toolResult(body, id) {
	for (const m of body.messages ?? []) {
		if (!Array.isArray(m.content)) continue;
		for (const b of m.content) if (b.type === "tool_result" && b.tool_use_id === id) return b;
	}
	return undefined;
}

/** all text of the last n messages of an Anthropic request (the new turn). */
export const tail = (body, n = 3) => (body.messages ?? []).slice(-n).map((m) => textOf(m.content)).join("\n");

/** newest file in dir (Claude Code's debug log), or undefined. */
export function newest(dir) {
	if (!existsSync(dir)) return undefined;
	const files = readdirSync(dir).filter((f) => f.endsWith(".txt"));
	files.sort();
	return files.length ? join(dir, files.at(-1)) : undefined;
}

export const read = (p) => (existsSync(p) ? readFileSync(p, "utf8") : "");
export const save = (name, text) => writeFileSync(join(outDir, name), text);

/** like assert.match, but a failure shows only the text's last 2,000 characters. */
export function expectMatch(s, re, what = "text") {
	if (!re.test(s)) throw new Error(`${what} does not match ${re}; its end:\n${s.slice(-2000)}`);
}
