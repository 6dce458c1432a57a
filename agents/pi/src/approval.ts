// pi-plan-mode's approval event → the project's approved plan.
//
// pi-plan-mode keeps its plan files outside the repository. The approved
// text is written to PLAN.md at the workspace root (or $PLANLS_PI_PLAN_FILE,
// relative to the root), the file planls, the editors and `planls check`
// read, and `planls approve` makes it the approved plan. Text nobody approved
// is never overwritten: when that file holds anything but the currently
// approved plan (edits not yet approved, or a plan never approved), the
// approved text goes to .planls/pi-plans/<planId>.md instead.
//
// The plan the user accepted in plan mode is their choice of plan: it is
// approved with --replace, so it replaces an approved plan kept in another
// file (PLAN.md's, or an earlier pi plan's) even where it drops items of it,
// and planls's notes name the closed ones that left. A plan planls finds
// nothing to track in is still refused, and then no file changes.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { approve, type CallResult, todo } from "./planls.js";

/** The event pi-plan-mode emits on pi.events when a plan is approved. */
export const PLAN_APPROVED_EVENT = "pi-plan-mode:plan-approved";

/** The session entry that records an approval this package applied. */
export const APPROVAL_ENTRY = "planls-plan-approval";

/** The payload of PLAN_APPROVED_EVENT, version 1. */
export interface PlanApproved {
	version: 1;
	planId: string;
	plan: string;
	sessionId: string;
}

/** isPlanApproved narrows an event-bus value to the version-1 contract. */
export function isPlanApproved(v: unknown): v is PlanApproved {
	if (!v || typeof v !== "object") return false;
	const p = v as Record<string, unknown>;
	return (
		p.version === 1 &&
		typeof p.planId === "string" &&
		p.planId !== "" &&
		typeof p.plan === "string" &&
		typeof p.sessionId === "string"
	);
}

/** What approving did: the plan file (relative to the root) and planls's result. */
export interface Applied {
	file: string;
	result: CallResult;
	/** Set when the default plan file held unapproved text and was left alone. */
	keptFile?: string;
}

const sha256 = (b: Buffer | string) => `sha256:${createHash("sha256").update(b).digest("hex")}`;

function readOrUndefined(p: string): Buffer | undefined {
	try {
		return readFileSync(p);
	} catch {
		return undefined;
	}
}

/** writeAtomic replaces p with text (temporary file, then rename: never half a plan). */
function writeAtomic(p: string, text: string | Buffer): void {
	mkdirSync(dirname(p), { recursive: true });
	const tmp = `${p}.${randomBytes(6).toString("hex")}.tmp`;
	writeFileSync(tmp, text);
	renameSync(tmp, p);
}

const slash = (p: string) => p.split(sep).join("/");

/**
 * applyApproval writes payload.plan into the project under root and approves
 * it with planls. The caller has already checked that payload.planId was not
 * applied before. When planls refuses the plan, the plan file is put back as
 * it was (or removed, if approving created it).
 */
export async function applyApproval(root: string, payload: PlanApproved): Promise<Applied> {
	const preferred = process.env.PLANLS_PI_PLAN_FILE || "PLAN.md";
	let target = join(root, preferred);
	let keptFile: string | undefined;
	const current = readOrUndefined(target);
	if (current !== undefined && !current.equals(Buffer.from(payload.plan))) {
		const listed = await todo({ cwd: root, root }, { action: "list" });
		const approvedId = listed.envelope.details.plan?.id;
		if (listed.envelope.details.error !== undefined) return { file: slash(relative(root, target)), result: listed };
		if (approvedId !== sha256(current)) {
			keptFile = slash(relative(root, target));
			target = join(root, ".planls", "pi-plans", `${payload.planId.replace(/[^A-Za-z0-9._-]/g, "_")}.md`);
		}
	}
	const before = readOrUndefined(target);
	const wrote = before?.equals(Buffer.from(payload.plan)) !== true;
	if (wrote) writeAtomic(target, payload.plan);
	const file = slash(relative(root, target));
	const result = await approve(root, target, { replace: true });
	if (wrote && result.envelope.details.error !== undefined) {
		// planls refused the plan (no items, not UTF-8, ...): put the file back as it was
		if (before === undefined) rmSync(target, { force: true });
		else writeAtomic(target, before);
	}
	return { file, result, keptFile };
}

// pi-plan-mode 0.2.4, the one on npm, emits no event: its /plan:approve sends
// a hidden custom message `plan-approved` with the plan inside this frame.
const FRAME_HEAD = "[APPROVED PLAN]\n\nThe following plan has been approved and is now being executed:\n\n";
const FRAME_TAIL = "\n\nFollow this plan during execution.";

/**
 * approvalFromMessage reads pi-plan-mode 0.2.4's `plan-approved` custom
 * message as a version-1 approval: the framed plan text, and a planId made
 * of the message's time, unique per approval. undefined for anything else.
 */
export function approvalFromMessage(message: unknown, sessionId: string): PlanApproved | undefined {
	const m = message as { role?: string; customType?: string; content?: unknown; timestamp?: unknown };
	if (m?.role !== "custom" || m.customType !== "plan-approved" || typeof m.content !== "string") return undefined;
	if (!m.content.startsWith(FRAME_HEAD) || !m.content.endsWith(FRAME_TAIL)) return undefined;
	const plan = m.content.slice(FRAME_HEAD.length, m.content.length - FRAME_TAIL.length);
	return { version: 1, planId: `pi-plan-mode-0.2:${String(m.timestamp ?? sha256(plan))}`, plan, sessionId };
}
