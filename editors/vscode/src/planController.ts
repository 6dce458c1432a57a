// Keeps the sidebar, the status bar and the welcome view in step with the
// server: asks `planls/plan` for each workspace folder on start, on
// `planls/stateChanged`, and after every command.

import * as vscode from 'vscode';
import type { ServerManager } from './client';
import { decodePlan, PlanResult, planRequest, StateChangedParams } from './protocol';
import { buildTree, statusBarText, viewState, ViewState } from './treeModel';
import type { PlanTreeProvider } from './treeView';

/** Context key the viewsWelcome `when` clauses read. */
export const viewContextKey = 'planls.view';

/**
 * Delay that folds a burst of stateChanged notifications into one refresh
 * (ms). Longer than the gap between two keystrokes of someone typing (about
 * 150 ms), so typing in the plan asks `planls/plan` once, when it pauses,
 * not once per keystroke; as long as the Neovim sidebar's default.
 */
const debounceMs = 200;

/** PlanController fetches plans and renders them into the tree and status bar. */
export class PlanController implements vscode.Disposable {
	private plans: PlanResult[] = [];
	private timer: NodeJS.Timeout | undefined;
	private running: Promise<void> | undefined;
	private again = false;
	private lastView: ViewState | undefined;

	constructor(
		private readonly server: ServerManager,
		private readonly tree: PlanTreeProvider,
		private readonly status: vscode.StatusBarItem,
		private readonly output: vscode.OutputChannel,
	) {}

	/** The plans as of the last refresh, one per workspace folder that answered. */
	get current(): readonly PlanResult[] {
		return this.plans;
	}

	/**
	 * stateChanged schedules a refresh for a `planls/stateChanged`, unless the
	 * plan shown for its root already has that revision or a later one (the
	 * server's revisions only rise): the answer to a request made after the
	 * change already showed it, and asking again would cost a round trip and
	 * a redraw for nothing. It returns whether a refresh was scheduled.
	 */
	stateChanged(p: StateChangedParams | undefined): boolean {
		if (p && p.revision > 0 && this.plans.some((pl) => pl.root === p.root && pl.revision >= p.revision) && !this.timer && !this.running) {
			return false;
		}
		this.scheduleRefresh();
		return true;
	}

	/** scheduleRefresh refreshes soon, folding bursts into one request round. */
	scheduleRefresh(): void {
		if (this.timer) {
			clearTimeout(this.timer);
		}
		this.timer = setTimeout(() => {
			this.timer = undefined;
			void this.refresh();
		}, debounceMs);
	}

	/**
	 * refresh re-reads every folder's plan and re-renders. Calls made while
	 * one runs are coalesced into a single follow-up, so the last state wins.
	 */
	refresh(): Promise<void> {
		if (this.running) {
			this.again = true;
			return this.running;
		}
		this.running = (async () => {
			try {
				do {
					this.again = false;
					await this.fetch();
					this.render();
				} while (this.again);
			} finally {
				this.running = undefined;
			}
		})();
		return this.running;
	}

	private async fetch(): Promise<void> {
		if (this.server.state !== 'running') {
			this.plans = [];
			return;
		}
		const folders = vscode.workspace.workspaceFolders ?? [];
		const results = await Promise.all(
			folders.map(async (f) => {
				try {
					return decodePlan(await this.server.request(planRequest, { uri: f.uri.toString() }));
				} catch (err) {
					this.output.appendLine(`[planls] ${planRequest} for ${f.uri.toString()}: ${String(err)}`);
					return undefined;
				}
			}),
		);
		this.plans = results.filter((p): p is PlanResult => p !== undefined);
	}

	/** render pushes the current plans into the view, the welcome context key and the status bar. */
	render(): void {
		const view = viewState(this.server.state, this.plans);
		if (view !== this.lastView) {
			this.lastView = view;
			void vscode.commands.executeCommand('setContext', viewContextKey, view);
		}
		this.tree.setRoots(buildTree(view, this.plans, this.tree.expansion));
		const text = this.server.state === 'running' ? statusBarText(this.plans) : undefined;
		if (text) {
			this.status.text = text;
			this.status.tooltip = 'planls: open plan items. Click to show the plan.';
			this.status.show();
		} else {
			this.status.hide();
		}
	}

	/** planFor finds the plan holding item id (at uri when given). */
	planFor(uri: string | undefined, id?: number): PlanResult | undefined {
		const holds = (p: PlanResult) => id === undefined || p.groups.some((g) => g.items.some((it) => it.id === id));
		if (uri) {
			const exact = this.plans.find((p) => p.planUri === uri && holds(p));
			if (exact) {
				return exact;
			}
			const inside = this.plans.find((p) => p.root !== '' && uri.startsWith(p.root.endsWith('/') ? p.root : p.root + '/') && holds(p));
			if (inside) {
				return inside;
			}
		}
		return this.plans.find((p) => p.exists && holds(p));
	}

	/** statusOf returns an item's status; undefined when unknown. */
	statusOf(uri: string | undefined, id: number): string | undefined {
		return this.planFor(uri, id)
			?.groups.flatMap((g) => g.items)
			.find((it) => it.id === id)?.status;
	}

	/** subjectOf returns an item's subject for prompts; "" when unknown. */
	subjectOf(uri: string | undefined, id: number): string {
		const plan = this.planFor(uri, id);
		for (const g of plan?.groups ?? []) {
			for (const it of g.items) {
				if (it.id === id) {
					return it.subject;
				}
			}
		}
		return '';
	}

	dispose(): void {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
