// Entry point: wires the language client, the plan sidebar, the status bar
// and the commands. Activation is on PLAN.md/.planls in the workspace or on
// markdown only, so it costs nothing at VS Code start elsewhere.

import * as vscode from 'vscode';
import { ServerManager } from './client';
import { registerCommands } from './commands';
import { PlanController } from './planController';
import { PlanTreeProvider } from './treeView';

let manager: ServerManager | undefined;

/** activate is called by VS Code once per window. */
export function activate(context: vscode.ExtensionContext): void {
	const output = vscode.window.createOutputChannel('planls');
	const server = new ServerManager(output);
	manager = server;
	const tree = new PlanTreeProvider();
	const view = vscode.window.createTreeView('planls.plan', { treeDataProvider: tree, showCollapseAll: true });
	const status = vscode.window.createStatusBarItem('planls.status', vscode.StatusBarAlignment.Left, 50);
	status.name = 'planls plan items';
	status.command = 'planls.showPlan';
	const plans = new PlanController(server, tree, status, output);

	context.subscriptions.push(
		output,
		server,
		tree,
		view,
		status,
		plans,
		view.onDidExpandElement((e) => tree.expansion.set(e.element.id, true)),
		view.onDidCollapseElement((e) => tree.expansion.set(e.element.id, false)),
		server.onDidChangeServerState(() => {
			plans.render();
			plans.scheduleRefresh();
		}),
		server.onDidChangePlanState((p) => plans.stateChanged(p)),
		vscode.workspace.onDidChangeWorkspaceFolders((e) => {
			output.appendLine(`[planls] workspace folders: ${e.added.length} added, ${e.removed.length} removed`);
			// The client follows folder changes itself; only a window that had
			// no folder at all has no client yet.
			if (server.state === 'noFolder') {
				void server.start();
			}
			plans.scheduleRefresh();
		}),
		vscode.workspace.onDidChangeConfiguration((e) => {
			if (e.affectsConfiguration('planls.path')) {
				void server.restart();
			} else if (e.affectsConfiguration('planls')) {
				plans.scheduleRefresh();
			}
		}),
		...registerCommands({ server, plans, output }),
	);
	plans.render();
	void server.start().then(() => plans.refresh());
}

/** deactivate stops the server so no planls process outlives the window. */
export function deactivate(): Promise<void> | undefined {
	return manager?.stop();
}
