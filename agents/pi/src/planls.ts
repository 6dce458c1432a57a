// Running the planls binary. Every string the model or the user reads comes
// from planls: this module only moves bytes between pi and the CLI.
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** One text block of a todo result, as the seed's envelope has it. */
export interface TextContent {
	type: "text";
	text: string;
}

/** A task of the seed's snapshot (planls adds fields such as version and planOrder). */
export interface Task {
	id: number;
	subject: string;
	status: "pending" | "in_progress" | "completed" | "deferred" | "deleted";
	source?: "plan";
	planGroup?: string;
	evidence?: string;
	reason?: string;
	[field: string]: unknown;
}

/** details of the seed's return envelope: the post-call snapshot. */
export interface Details {
	action: string;
	params: unknown;
	tasks: Task[];
	nextId?: number;
	error?: string;
	plan?: { id: string; title: string; path?: string; [field: string]: unknown };
	[field: string]: unknown;
}

/** The seed's return envelope, as `planls todo --json` prints it. */
export interface Envelope {
	content: TextContent[];
	details: Details;
}

/** A UI notice planls printed on stderr, such as `warning: Plan item deferred: ...`. */
export interface Notice {
	level: "info" | "warning" | "error";
	text: string;
}

/** The outcome of one planls call that answers with an envelope. */
export interface CallResult {
	envelope: Envelope;
	notices: Notice[];
}

/** The planls executable: $PLANLS_BIN, else `planls` on PATH. */
export function planlsBin(): string {
	return process.env.PLANLS_BIN || "planls";
}

/**
 * The workspace root planls would pick for cwd: $PLANLS_ROOT, else the
 * nearest directory at or above cwd holding `.planls/` or `.git` (planls's
 * own rule, `planls --help`). undefined outside a project: then nothing is
 * written, since planls never creates state outside one.
 */
export function findRoot(cwd: string): string | undefined {
	const pinned = process.env.PLANLS_ROOT;
	if (pinned) return resolve(cwd, pinned);
	let dir = resolve(cwd);
	for (;;) {
		if (isDir(join(dir, ".planls")) || existsSync(join(dir, ".git"))) return dir;
		const up = dirname(dir);
		if (up === dir) return undefined;
		dir = up;
	}
}

function isDir(p: string): boolean {
	try {
		return statSync(p).isDirectory();
	} catch {
		return false;
	}
}

interface Exit {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** run starts planls with args in cwd, writes input to its stdin and collects both streams. */
export function run(args: string[], cwd: string, input: string, signal?: AbortSignal): Promise<Exit> {
	return new Promise((done) => {
		const child = spawn(planlsBin(), args, { cwd, stdio: ["pipe", "pipe", "pipe"], signal });
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		child.stdout.on("data", (b: Buffer) => out.push(b));
		child.stderr.on("data", (b: Buffer) => err.push(b));
		child.stdin.on("error", () => {}); // a child that exits early closes its stdin
		let failed: Error | undefined;
		child.on("error", (e) => {
			failed = e;
		});
		child.on("close", (code) => {
			const stderr = Buffer.concat(err).toString("utf8");
			done({
				code: failed ? null : code,
				stdout: Buffer.concat(out).toString("utf8"),
				stderr: failed ? `Error: cannot run ${planlsBin()}: ${failed.message}` : stderr,
			});
		});
		child.stdin.end(input);
	});
}

/**
 * notices picks planls's `level: text` lines out of its stderr: the
 * tool's notices (`warning: Plan item deferred: ...`) and the CLI's
 * `notice: ...` lines (what a first approval set up in the clone), shown
 * as info.
 */
export function notices(stderr: string): Notice[] {
	const out: Notice[] = [];
	for (const line of stderr.split("\n")) {
		const m = /^(info|notice|warning|error): (.*)$/.exec(line);
		if (m) out.push({ level: m[1] === "notice" ? "info" : (m[1] as Notice["level"]), text: m[2] });
	}
	return out;
}

/**
 * failure shapes an error planls printed outside an envelope (no project,
 * an unreadable state file, a lock timeout: exit 2) like an in-band
 * rejection, as planls's MCP server does: content `Error: <message>`,
 * details.error the bare message, no tasks since the state is unknown.
 */
export function failure(action: string, params: unknown, stderr: string): Envelope {
	const line = stderr.split("\n").find((l) => l.startsWith("Error: ")) ?? `Error: ${stderr.trim() || "planls failed"}`;
	const message = line.slice("Error: ".length);
	return {
		content: [{ type: "text", text: line }],
		details: { action, params, tasks: [], error: message },
	};
}

/** actionOf names a call's action the way details.action does: "batch" for ops. */
export function actionOf(params: Record<string, unknown>): string {
	if (params.action === undefined && Array.isArray(params.ops)) return "batch";
	return typeof params.action === "string" ? params.action : "";
}

/**
 * envelopeCall runs a planls command that prints the tool's envelope with
 * --json (exit 0 applied, 1 rejected in-band, 2 out-of-band error).
 */
async function envelopeCall(args: string[], cwd: string, input: string, action: string, params: unknown, signal?: AbortSignal): Promise<CallResult> {
	const exit = await run(args, cwd, input, signal);
	if ((exit.code === 0 || exit.code === 1) && exit.stdout.trim() !== "") {
		try {
			return { envelope: JSON.parse(exit.stdout) as Envelope, notices: notices(exit.stderr) };
		} catch {
			// fall through: not an envelope
		}
	}
	return { envelope: failure(action, params, exit.stderr || exit.stdout), notices: [] };
}

/**
 * where is the working directory and root flag of a planls call: the root
 * when there is one, else cwd without --root, so that planls itself says
 * that (and where) it found no project.
 */
export interface Where {
	cwd: string;
	root?: string;
}

const rootArgs = (w: Where) => (w.root ? ["--root", w.root] : []);

/** todo runs one todo tool call through `planls todo --params - --json`. */
export function todo(w: Where, params: Record<string, unknown>, signal?: AbortSignal): Promise<CallResult> {
	return envelopeCall([...rootArgs(w), "todo", "--params", "-", "--json"], w.root ?? w.cwd, JSON.stringify(params), actionOf(params), params, signal);
}

/** ApproveOptions are `planls approve`'s choices. */
export interface ApproveOptions {
	/**
	 * replace passes --replace: the plan file replaces an approved plan in
	 * another file even though that drops some of its items (refused
	 * otherwise). A plan with nothing to track is still refused.
	 */
	replace?: boolean;
}

/** approve runs `planls approve FILE --json` in root: the plan file becomes the approved plan. */
export function approve(root: string, file: string, opts: ApproveOptions = {}): Promise<CallResult> {
	const flags = opts.replace ? ["--replace"] : [];
	return envelopeCall(["--root", root, "approve", ...flags, file, "--json"], root, "", "approve", { path: file });
}

/**
 * reminder is planls's wrap-up text for root, from the Stop hook
 * `planls check --hook claude`: the reminder of open plan items (plus items
 * closed without proof and plan drift), or "" when nothing is owed (no plan
 * approved, every plan item closed).
 */
export async function reminder(root: string): Promise<string> {
	const exit = await run(["--root", root, "check", "--hook", "claude"], root, JSON.stringify({ cwd: root }));
	if (exit.stdout.trim() === "") return "";
	try {
		const out = JSON.parse(exit.stdout) as { decision?: string; reason?: string };
		return out.decision === "block" && typeof out.reason === "string" ? out.reason : "";
	} catch {
		return "";
	}
}
