// The planls.* commands, registered once per activation (never by the
// language client, see commandFilter.ts). Server commands arriving from code
// actions, the sidebar or the palette all end up in runServerCommand.

import * as vscode from 'vscode';
import type { ServerManager } from './client';
import { CommandArg, normalizeArg, serverArg } from './commandArgs';
import type { PlanController } from './planController';
import { completePrompt, deferPrompt, PromptSpec, reopenPrompt } from './prompts';
import { forPeople, summarizeEnvelope } from './protocol';
import { showReport } from './report';
import { pickableItems, RevealTarget } from './treeModel';
import { revealCommand } from './treeView';

type ItemAction = 'complete' | 'defer' | 'start' | 'reopen';

/** Everything the command handlers act on. */
export interface CommandDeps {
	server: ServerManager;
	plans: PlanController;
	output: vscode.OutputChannel;
}

/** registerCommands registers every planls.* command and returns their disposables. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
	const { server, plans, output } = deps;
	const reg = (id: string, fn: (...args: unknown[]) => unknown) => vscode.commands.registerCommand(id, fn);
	return [
		reg('planls.restartServer', async () => {
			await server.restart();
			await plans.refresh();
		}),
		reg('planls.showOutput', () => output.show(true)),
		reg('planls.showPlan', () => vscode.commands.executeCommand('workbench.view.extension.planls')),
		reg('planls.refresh', () => plans.refresh()),
		reg('planls.showReport', () => showReport(server, plans, output)),
		reg('planls.approve', (arg) => approve(deps, normalizeArg(arg))),
		reg('planls.complete', (arg) => itemCommand(deps, 'complete', normalizeArg(arg))),
		reg('planls.defer', (arg) => itemCommand(deps, 'defer', normalizeArg(arg))),
		reg('planls.start', (arg) => itemCommand(deps, 'start', normalizeArg(arg))),
		reg('planls.reopen', (arg) => itemCommand(deps, 'reopen', normalizeArg(arg))),
		reg('planls.todo', (arg) => {
			const a = normalizeArg(arg);
			return a ? runServerCommand(deps, 'planls.todo', a) : undefined;
		}),
		reg(revealCommand, (target) => reveal(target as RevealTarget | undefined)),
	];
}

async function approve(deps: CommandDeps, arg: CommandArg | undefined): Promise<void> {
	const a: CommandArg = arg ?? {};
	if (!a.uri) {
		// The welcome button passes nothing: approve the plan that waits for it.
		const plan = deps.plans.current.find((p) => p.exists && (!p.approved || p.needsReapproval)) ?? deps.plans.current.find((p) => p.exists);
		if (plan) {
			a.uri = plan.planUri;
		}
	}
	delete a.id;
	await runServerCommand(deps, 'planls.approve', a);
}

async function itemCommand(deps: CommandDeps, action: ItemAction, arg: CommandArg | undefined): Promise<void> {
	let a = arg;
	if (!a || typeof a.id !== 'number' || a.id <= 0) {
		a = await pickItem(deps, action);
		if (!a) {
			return;
		}
	}
	const id = a.id as number;
	const reopening = action === 'reopen' && deps.plans.statusOf(a.uri, id) === 'completed';
	if (action === 'complete' || action === 'defer' || reopening) {
		const field = action === 'complete' ? 'evidence' : 'reason';
		const given = a[field];
		if (typeof given !== 'string' || given.trim() === '') {
			const subject = a.subject || deps.plans.subjectOf(a.uri, id);
			const spec =
				action === 'complete' ? completePrompt(id, subject, await offeredEvidence(deps, a.uri, id)) : reopening ? reopenPrompt(id, subject) : deferPrompt(id, subject);
			const answer = await ask(spec);
			if (answer === undefined) {
				return; // Escape: change nothing.
			}
			await runServerCommand(deps, `planls.${action}`, serverArg(a, field, answer.trim()));
			return;
		}
	}
	await runServerCommand(deps, `planls.${action}`, serverArg(a));
}

function ask(spec: PromptSpec): Thenable<string | undefined> {
	return vscode.window.showInputBox({
		title: spec.title,
		prompt: spec.prompt,
		placeHolder: spec.placeHolder,
		value: spec.value,
		// Clicking into the editor to look something up must not drop the answer.
		ignoreFocusOut: true,
		validateInput: spec.validateInput,
	});
}

/**
 * offeredEvidence is the evidence the server offers as a one-click
 * "Complete #N with …" code action on item id, the default answer of the
 * prompt: one rule for every client (lsp/readyevidence.go). undefined
 * when it offers none or the item is not in the plan file.
 */
async function offeredEvidence(deps: CommandDeps, uri: string | undefined, id: number): Promise<string | undefined> {
	const plan = deps.plans.planFor(uri, id);
	const item = plan?.groups.flatMap((g) => g.items).find((it) => it.id === id);
	if (!plan || !item?.range) {
		return undefined;
	}
	try {
		const line = item.range.start.line;
		const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
			'vscode.executeCodeActionProvider',
			vscode.Uri.parse(plan.planUri),
			new vscode.Range(line, 0, line, 0),
		);
		for (const a of actions ?? []) {
			const c = 'command' in a && typeof a.command === 'object' ? a.command : (a as vscode.Command);
			const arg = c?.arguments?.[0] as { id?: unknown; evidence?: unknown } | undefined;
			if (c?.command === 'planls.complete' && arg?.id === id && typeof arg.evidence === 'string' && arg.evidence.trim() !== '') {
				return arg.evidence;
			}
		}
	} catch {
		// No default: the prompt still asks.
	}
	return undefined;
}

async function pickItem(deps: CommandDeps, action: ItemAction): Promise<CommandArg | undefined> {
	await deps.plans.refresh();
	const items = pickableItems(deps.plans.current, action);
	if (items.length === 0) {
		void vscode.window.showInformationMessage(`planls: no plan item to ${action}.`);
		return undefined;
	}
	const picked = await vscode.window.showQuickPick(
		items.map((it) => ({ label: `#${it.id}`, description: it.subject, ref: it })),
		{ title: `planls: ${action} which plan item?`, matchOnDescription: true },
	);
	return picked ? { id: picked.ref.id, uri: picked.ref.uri, subject: picked.ref.subject } : undefined;
}

/**
 * runServerCommand sends workspace/executeCommand and shows the outcome: an
 * error message for a rejected call (details.error), a transient status bar
 * message otherwise. The sidebar refreshes either way.
 */
async function runServerCommand(deps: CommandDeps, command: string, arg: CommandArg | Record<string, unknown>): Promise<void> {
	const sent = serverArg(arg as CommandArg);
	try {
		const res = summarizeEnvelope(await deps.server.executeCommand(command, sent));
		res.text = forPeople(res.text);
		if (res.error) {
			void vscode.window.showErrorMessage(`planls: ${res.text || res.error}`);
		} else if (res.text) {
			vscode.window.setStatusBarMessage(`planls: ${res.text.split('\n')[0]}`, 5000);
		}
	} catch (err) {
		deps.output.appendLine(`[planls] ${command} ${JSON.stringify(sent)}: ${String(err)}`);
		const show = 'Show Log';
		void vscode.window.showErrorMessage(`planls: ${command} failed: ${err instanceof Error ? err.message : String(err)}`, show).then((c) => {
			if (c === show) {
				deps.output.show(true);
			}
		});
	}
	await deps.plans.refresh();
}

async function reveal(target: RevealTarget | undefined): Promise<void> {
	if (!target || typeof target.uri !== 'string') {
		return;
	}
	const r = target.range;
	const range = new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
	const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(target.uri));
	await vscode.window.showTextDocument(doc, { selection: range, preserveFocus: false });
}
