// The plan view in pi's TUI: a widget above the editor with the approved
// plan's open/total count and its items with their status, refreshed after
// every todo call and whenever another writer (an editor, the CLI, another
// agent) replaces .planls/state.json.
import { type FSWatcher, watch } from "node:fs";
import { join } from "node:path";
import type { Details, Task } from "./planls.js";

export const WIDGET_KEY = "planls";

/** At most this many item lines; the rest is summed up in one line. */
const MAX_ITEMS = 12;

// An escape sequence as a whole: CSI (ESC [ params final), OSC (ESC ] text
// up to BEL or ESC \), or ESC and one character.
const ESCAPE = /\u001b(?:\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[\s\S])?/g;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * clean keeps model-written text from steering the terminal: escape
 * sequences go whole, other control and line-separator characters become
 * spaces (one line per item), bidi overrides and marks go.
 */
export function clean(s: string): string {
	return s.replace(ESCAPE, "").replace(CONTROL, " ").replace(BIDI, "");
}

const open = (t: Task) => t.status === "pending" || t.status === "in_progress";

/**
 * widgetLines renders a snapshot: a header with the plan's title and its
 * open/total plan items (total excludes deleted ones, as planls's list
 * header counts them), one `[status] #id subject` line per plan item in plan
 * order, then one line for the agent's own todos. No plan and no todos: no
 * widget (undefined).
 */
export function widgetLines(d: Details): string[] | undefined {
	const live = d.tasks.filter((t) => t.status !== "deleted");
	const plan = live.filter((t) => t.source === "plan");
	const own = live.filter((t) => t.source !== "plan");
	if (!d.plan && plan.length === 0 && own.length === 0) return undefined;
	const lines: string[] = [];
	if (d.plan || plan.length > 0) {
		const title = clean(d.plan?.title ?? "plan");
		lines.push(`planls: ${title} -- ${plan.filter(open).length}/${plan.length} plan items open`);
		const order = (t: Task) => (typeof t.planOrder === "number" ? t.planOrder : t.id);
		const sorted = [...plan].sort((a, b) => order(a) - order(b) || a.id - b.id);
		for (const t of sorted.slice(0, MAX_ITEMS)) lines.push(`  [${t.status}] #${t.id} ${clean(t.subject)}`);
		if (sorted.length > MAX_ITEMS) lines.push(`  ... ${sorted.length - MAX_ITEMS} more (todo list shows all)`);
	} else {
		lines.push("planls: no approved plan");
	}
	if (own.length > 0) lines.push(`todos: ${own.filter(open).length}/${own.length} open`);
	return lines;
}

/**
 * StateWatcher calls onChange (debounced) after the files in root/.planls
 * change. It watches the directory, not the file, because planls replaces
 * state.json by rename, and a directory that does not exist yet is retried
 * on the next start.
 */
export class StateWatcher {
	private watcher: FSWatcher | undefined;
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly onChange: () => void,
		private readonly delayMs = 75,
	) {}

	/** start watches root/.planls; it returns false when the directory cannot be watched (yet). */
	start(root: string): boolean {
		this.stop();
		try {
			this.watcher = watch(join(root, ".planls"), { persistent: false }, (_event, name) => {
				if (name && !String(name).startsWith("state.json") && !String(name).startsWith(".state.json")) return;
				clearTimeout(this.timer);
				this.timer = setTimeout(this.onChange, this.delayMs);
				this.timer.unref?.();
			});
			this.watcher.on("error", () => this.stop());
			return true;
		} catch {
			return false;
		}
	}

	get watching(): boolean {
		return this.watcher !== undefined;
	}

	stop(): void {
		clearTimeout(this.timer);
		this.watcher?.close();
		this.watcher = undefined;
	}
}
