// Maps the NodeView model onto vscode.TreeItem and remembers expansion.

import * as vscode from 'vscode';
import { reconcile } from './treeDiff';
import type { NodeView } from './treeModel';

/** Command run when an item is clicked: reveal it in the plan file. */
export const revealCommand = 'planls.revealItem';

/** PlanTreeProvider serves the nodes built by treeModel.buildTree. */
export class PlanTreeProvider implements vscode.TreeDataProvider<NodeView>, vscode.Disposable {
	private roots: NodeView[] = [];
	private parents = new Map<string, NodeView>();
	private readonly emitter = new vscode.EventEmitter<NodeView | NodeView[] | undefined | void>();
	/** Expand/collapse choices by node id, fed back into buildTree. */
	readonly expansion = new Map<string, boolean>();
	readonly onDidChangeTreeData = this.emitter.event;

	/**
	 * setRoots shows a new tree. Nodes keep their objects by id and only what
	 * changed is fired (treeDiff.ts says why a root refresh is costly); an
	 * identical tree fires nothing.
	 */
	setRoots(roots: NodeView[]): void {
		const r = reconcile(this.roots, roots);
		this.roots = r.roots;
		this.parents.clear();
		const walk = (n: NodeView) => {
			for (const c of n.children) {
				this.parents.set(c.id, n);
				walk(c);
			}
		};
		this.roots.forEach(walk);
		if (r.changed === 'all') {
			this.emitter.fire();
		} else if (r.changed.length > 0) {
			this.emitter.fire(r.changed);
		}
	}

	/** The current roots (for tests and the status bar). */
	get nodes(): readonly NodeView[] {
		return this.roots;
	}

	getChildren(element?: NodeView): NodeView[] {
		return element ? element.children : this.roots;
	}

	getParent(element: NodeView): NodeView | undefined {
		return this.parents.get(element.id);
	}

	getTreeItem(n: NodeView): vscode.TreeItem {
		const state =
			n.collapsible === 'none'
				? vscode.TreeItemCollapsibleState.None
				: n.collapsible === 'expanded'
					? vscode.TreeItemCollapsibleState.Expanded
					: vscode.TreeItemCollapsibleState.Collapsed;
		const item = new vscode.TreeItem(n.label, state);
		item.id = n.id;
		item.description = n.description;
		item.tooltip = n.tooltip;
		item.contextValue = n.contextValue;
		if (n.icon) {
			item.iconPath = new vscode.ThemeIcon(n.icon.id, n.icon.color ? new vscode.ThemeColor(n.icon.color) : undefined);
		}
		if (n.reveal && n.kind === 'item') {
			item.command = { command: revealCommand, title: 'Show in Plan', arguments: [n.reveal] };
		}
		if (n.open) {
			// An evidence file opens at the line the evidence names.
			const line = Math.max(n.open.line - 1, 0);
			item.command = {
				command: 'vscode.open',
				title: 'Open Evidence File',
				arguments: [vscode.Uri.parse(n.open.uri), { selection: new vscode.Range(line, 0, line, 0) }],
			};
		}
		return item;
	}

	dispose(): void {
		this.emitter.dispose();
	}
}
