// Is pi-plan-mode's Plan mode active? No reminder is sent while it is
// (rpiv-todo, "Plan items"). Two published shapes are read:
// - nredd/pi-plan-mode: the `pi:mode-changed` event ({version: 1, source:
//   "pi-plan-mode", mode: "plan", active}) while the runtime lives, and the
//   hidden `plan-mode-transition` messages (details.mode "plan" | "normal")
//   that keep the mode history on the session branch across reloads;
// - pi-plan-mode 0.2.4 on npm: its `plan-mode` custom entries ({active}).

/** The live mode event of nredd/pi-plan-mode. */
export const MODE_CHANGED_EVENT = "pi:mode-changed";

interface BranchEntry {
	type?: string;
	customType?: string;
	data?: unknown;
	details?: unknown;
}

/** modeFromEvent reads a `pi:mode-changed` payload: true/false for Plan mode, undefined if not one. */
export function modeFromEvent(v: unknown): boolean | undefined {
	if (!v || typeof v !== "object") return undefined;
	const e = v as Record<string, unknown>;
	if (e.version !== 1 || e.source !== "pi-plan-mode" || e.mode !== "plan" || typeof e.active !== "boolean") return undefined;
	return e.active;
}

/** modeFromBranch is the latest Plan-mode marker on the branch, or undefined when there is none. */
export function modeFromBranch(branch: readonly unknown[]): boolean | undefined {
	for (let i = branch.length - 1; i >= 0; i--) {
		const e = branch[i] as BranchEntry;
		if (e?.type === "custom_message" && e.customType === "plan-mode-transition") {
			const mode = (e.details as { mode?: unknown } | undefined)?.mode;
			if (mode === "plan") return true;
			if (mode === "normal") return false;
		}
		if (e?.type === "custom" && e.customType === "plan-mode") {
			const active = (e.data as { active?: unknown } | undefined)?.active;
			if (typeof active === "boolean") return active;
		}
	}
	return undefined;
}
