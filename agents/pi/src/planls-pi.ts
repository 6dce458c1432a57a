// planls for pi: the `todo` tool answered by planls, pi-plan-mode's approved
// plan as the project's approved plan, the wrap-up reminder, and a plan view.
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { APPROVAL_ENTRY, applyApproval, approvalFromMessage, isPlanApproved, PLAN_APPROVED_EVENT, type PlanApproved } from "./approval.js";
import { guidance } from "./config.js";
import { MODE_CHANGED_EVENT, modeFromBranch, modeFromEvent } from "./mode.js";
import { type Details, findRoot, type Notice, reminder, todo, type Where } from "./planls.js";
import { DESCRIPTION, PROMPT_GUIDELINES, PROMPT_SNIPPET, TodoParams, TOOL_LABEL, TOOL_NAME } from "./schema.js";
import { StateWatcher, WIDGET_KEY, widgetLines } from "./view.js";

/** The hidden message that carries planls's reminder to the model. */
export const REMINDER_TYPE = "planls-plan-reminder";

interface Message {
	role?: string;
	customType?: string;
}

/** remindedSinceLastPrompt: a reminder already follows the latest user prompt (one per prompt). */
export function remindedSinceLastPrompt(messages: readonly unknown[]): boolean {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i] as Message;
		if (m?.role === "custom" && m.customType === REMINDER_TYPE) return true;
		if (m?.role === "user") return false;
	}
	return false;
}

export default function planlsForPi(pi: ExtensionAPI): void {
	let ctx: ExtensionContext | undefined; // the live session's context
	let livePlanMode: boolean | undefined; // from pi:mode-changed, this runtime only
	const applied = new Set<string>(); // planIds handled in this runtime
	const waiting: PlanApproved[] = []; // approvals announced before session_start
	let shownLines = "";
	// The view is drawn only from refresh's reads, one at a time: each read
	// starts after the previous one ended, so the view never goes back to an
	// older state (a tool result's snapshot could race a watcher's read).
	let refreshing: Promise<void> | undefined;
	let again = false;
	const watcher = new StateWatcher(() => void refresh());

	const rootOf = (c: ExtensionContext | undefined) => (c ? findRoot(c.cwd) : undefined);
	const where = (c: ExtensionContext): Where => ({ cwd: c.cwd, root: findRoot(c.cwd) });

	const notify = (c: ExtensionContext, n: Notice) => {
		if (c.hasUI) c.ui.notify(n.text, n.level);
	};

	/** draw puts a snapshot in the widget, skipping a redraw that would change nothing. */
	const draw = (d: Details) => {
		if (!ctx?.hasUI || d.error !== undefined) return;
		const lines = widgetLines(d);
		const key = JSON.stringify(lines ?? null);
		if (key === shownLines) return;
		shownLines = key;
		ctx.ui.setWidget(WIDGET_KEY, lines);
	};

	/**
	 * refresh re-reads the project's state through planls and redraws the
	 * view. A refresh asked for while one runs makes that one read again when
	 * it is done, so the last read always starts after the last change.
	 */
	function refresh(): Promise<void> {
		if (refreshing) {
			again = true;
			return refreshing;
		}
		refreshing = (async () => {
			do {
				again = false;
				const root = rootOf(ctx);
				if (!root || !ctx?.hasUI) return;
				// .planls/ may have appeared since the last read
				if (!watcher.watching) watcher.start(root);
				const { envelope } = await todo({ cwd: root, root }, { action: "list" });
				draw(envelope.details);
			} while (again);
		})().finally(() => {
			refreshing = undefined;
		});
		return refreshing;
	}

	const handledBefore = (c: ExtensionContext, planId: string) =>
		applied.has(planId) ||
		c.sessionManager.getBranch().some((e) => {
			const entry = e as { type?: string; customType?: string; data?: { planId?: unknown } };
			return entry.type === "custom" && entry.customType === APPROVAL_ENTRY && entry.data?.planId === planId;
		});

	async function onApproved(c: ExtensionContext, payload: PlanApproved): Promise<void> {
		// seed: the same planId again is a no-op. Only an approval that took
		// effect counts: a failed one may be announced again.
		if (handledBefore(c, payload.planId)) return;
		const root = rootOf(c);
		if (!root) {
			// planls's own words for the missing project
			const { envelope } = await todo(where(c), { action: "list" });
			notify(c, { level: "error", text: `planls: the approved plan was not recorded: ${envelope.content[0]?.text ?? ""}` });
			return;
		}
		const done = await applyApproval(root, payload);
		const env = done.result.envelope;
		if (env.details.error !== undefined) {
			notify(c, { level: "error", text: `planls: ${env.content[0]?.text ?? env.details.error}` });
			return;
		}
		applied.add(payload.planId);
		pi.appendEntry(APPROVAL_ENTRY, { planId: payload.planId, file: done.file, planlsPlanId: env.details.plan?.id });
		if (done.keptFile) {
			notify(c, {
				level: "warning",
				text: `planls: ${done.keptFile} has text nobody approved, so it was left as is; the approved plan is ${done.file}`,
			});
		}
		notify(c, { level: "info", text: `planls: ${done.file}: ${env.content.map((b) => b.text).join("\n")}` });
		for (const n of done.result.notices) notify(c, n);
		await refresh();
	}

	// Approvals apply one at a time, in the order announced: two of them
	// never interleave their plan-file writes and planls calls.
	let approvals: Promise<void> = Promise.resolve();
	const enqueue = (c: ExtensionContext, payload: PlanApproved) => {
		approvals = approvals.then(() => onApproved(c, payload)).catch((e: unknown) => {
			notify(c, { level: "error", text: `planls: the approved plan was not recorded: ${e instanceof Error ? e.message : String(e)}` });
		});
		return approvals;
	};

	pi.events.on(PLAN_APPROVED_EVENT, async (data: unknown) => {
		if (!isPlanApproved(data)) return;
		if (!ctx) {
			waiting.push(data);
			return;
		}
		await enqueue(ctx, data);
	});

	// pi-plan-mode 0.2.4 (npm) announces an approval as a custom message.
	pi.on("message_end", async (event, c) => {
		const payload = approvalFromMessage(event.message, c.sessionManager.getSessionId());
		if (payload) await enqueue(c, payload);
	});

	pi.events.on(MODE_CHANGED_EVENT, (data: unknown) => {
		const mode = modeFromEvent(data);
		if (mode !== undefined) livePlanMode = mode;
	});

	const inPlanMode = (c: ExtensionContext) => livePlanMode ?? modeFromBranch(c.sessionManager.getBranch()) ?? false;

	const { promptSnippet, promptGuidelines } = guidance({ promptSnippet: PROMPT_SNIPPET, promptGuidelines: PROMPT_GUIDELINES });
	pi.registerTool({
		name: TOOL_NAME,
		label: TOOL_LABEL,
		description: DESCRIPTION,
		promptSnippet,
		promptGuidelines,
		parameters: TodoParams,
		// One call at a time, in the model's order: a later call sees an earlier one.
		executionMode: "sequential",
		async execute(_toolCallId, params, signal, _onUpdate, c) {
			const { envelope, notices } = await todo(where(c), params as Record<string, unknown>, signal);
			for (const n of notices) notify(c, n);
			void refresh();
			return { content: envelope.content, details: envelope.details };
		},
	});

	pi.registerCommand("todos", {
		description: "Show the project's plan items and todos (planls)",
		handler: async (_args, c) => {
			const { envelope } = await todo(where(c), { action: "list" });
			c.ui.notify(envelope.content.map((b) => b.text).join("\n"), envelope.details.error ? "error" : "info");
			void refresh();
		},
	});

	pi.on("session_start", async (_event, c) => {
		ctx = c;
		livePlanMode = undefined;
		shownLines = "";
		for (const payload of waiting.splice(0)) await enqueue(c, payload);
		await refresh();
	});

	pi.on("session_shutdown", async () => {
		watcher.stop();
		ctx = undefined;
	});

	// The wrap-up reminder (rpiv-todo, "Plan items"): a run that would end with
	// plan items open gets planls's reminder as one hidden message and one more
	// model turn; once per user prompt, never in Plan mode.
	pi.on("agent_before_settle", async (event, c) => {
		if (event.outcome !== "completed") return undefined;
		if (remindedSinceLastPrompt(event.context.contextMessages)) return undefined;
		if (inPlanMode(c)) return undefined;
		const root = findRoot(c.cwd);
		if (!root) return undefined;
		const text = await reminder(root);
		if (text === "") return undefined;
		return {
			entries: [...event.entries, { type: "custom_message", customType: REMINDER_TYPE, content: text, display: false }],
			continue: true,
		};
	});
}
