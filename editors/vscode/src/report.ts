// "planls: Show Plan Report": the HTML of `planls report -o -` in a
// webview. The page is planls's own (its Content-Security-Policy allows
// only its script); its links come back as messages and are followed only
// as reportLinks.ts allows. The panel is redrawn when the plan state
// changes while it is open.

import { execFile } from 'child_process';
import * as vscode from 'vscode';
import type { ServerManager } from './client';
import type { PlanController } from './planController';
import { linkTarget } from './reportLinks';

let panel: vscode.WebviewPanel | undefined;
let panelRoot = '';

/** showReport opens (or brings back and redraws) the report of one workspace root. */
export async function showReport(server: ServerManager, plans: PlanController, output: vscode.OutputChannel): Promise<void> {
	const approved = plans.current.filter((p) => p.approved);
	if (approved.length === 0) {
		void vscode.window.showInformationMessage('planls: no approved plan in this window; approve one to see its report.');
		return;
	}
	let plan = approved[0];
	if (approved.length > 1) {
		const pick = await vscode.window.showQuickPick(
			approved.map((p) => ({ label: p.title, description: vscode.Uri.parse(p.root).fsPath, plan: p })),
			{ placeHolder: 'Report of which plan?' },
		);
		if (!pick) {
			return;
		}
		plan = pick.plan;
	}
	const root = vscode.Uri.parse(plan.root).fsPath;
	if (!panel) {
		panel = vscode.window.createWebviewPanel('planls.report', 'Plan report', vscode.ViewColumn.Active, {
			enableScripts: true,
			enableCommandUris: false,
			localResourceRoots: [],
		});
		const changed = server.onDidChangePlanState(() => {
			if (panel?.visible) {
				void render(server, output);
			}
		});
		panel.onDidDispose(() => {
			changed.dispose();
			panel = undefined;
		});
		panel.webview.onDidReceiveMessage((msg) => follow(msg, output));
	}
	panelRoot = root;
	panel.title = `Plan report: ${plan.title}`;
	panel.reveal();
	await render(server, output);
}

async function render(server: ServerManager, output: vscode.OutputChannel): Promise<void> {
	const p = panel;
	if (!p || server.command === '') {
		return;
	}
	try {
		p.webview.html = await runReport(server.command, panelRoot);
	} catch (err) {
		const msg = err instanceof Error ? err.message : String(err);
		output.appendLine(`[planls] report: ${msg}`);
		void vscode.window.showErrorMessage(`planls report failed: ${msg}`);
	}
}

/** runReport is the report's HTML for root, from the planls binary at command. */
function runReport(command: string, root: string): Promise<string> {
	return new Promise((resolve, reject) => {
		execFile(command, ['report', '--root', root, '-o', '-'], { cwd: root, maxBuffer: 64 << 20, timeout: 60000, windowsHide: true }, (err, stdout, stderr) => {
			if (err) {
				reject(new Error(String(stderr).trim() || err.message));
			} else {
				resolve(String(stdout));
			}
		});
	});
}

async function follow(msg: unknown, output: vscode.OutputChannel): Promise<void> {
	const href = typeof msg === 'object' && msg !== null && (msg as { type?: unknown }).type === 'open' ? (msg as { href?: unknown }).href : undefined;
	const target = linkTarget(href, panelRoot);
	if (!target) {
		output.appendLine(`[planls] report: ignored a link to ${JSON.stringify(href)}`);
		return;
	}
	if (target.kind === 'web') {
		await vscode.env.openExternal(vscode.Uri.parse(target.url));
		return;
	}
	const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target.path));
	const line = Math.max(0, Math.min(target.line - 1, doc.lineCount - 1));
	await vscode.window.showTextDocument(doc, {
		viewColumn: vscode.ViewColumn.One,
		selection: new vscode.Range(line, 0, line, 0),
	});
}
