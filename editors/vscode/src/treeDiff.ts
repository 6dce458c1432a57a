// Reconciles a freshly built sidebar model with the one VS Code shows, so a
// refresh tells VS Code only what changed.
//
// Why: on every onDidChangeTreeData for the root, VS Code's extension host
// drops all its tree nodes at once, and with them the per-node cache behind
// each item's click command and the element behind each inline action. Until
// the workbench has fetched the tree again (hundreds of ms on a busy
// machine), a click fails with "Actual command not found, wanted to execute
// planls.revealItem /1" and an inline action gets no element (so the command
// asks "which plan item?"). Every command and every planls/stateChanged
// re-renders the sidebar, mostly with nothing new; firing the root each time
// kept that window open most of the time. Keeping node objects stable by id
// and firing only the nodes that changed closes it for everything the user
// is not looking at changing.

import type { NodeView } from './treeModel';

/** What reconcile found: the roots to serve and what to fire. */
export interface Reconciled {
	/** The new roots, reusing the previous node object of every id seen before. */
	roots: NodeView[];
	/**
	 * 'all': fire the root (the roots or the tree's shape changed); otherwise
	 * the previous node objects whose own fields or children changed (empty:
	 * fire nothing).
	 */
	changed: 'all' | NodeView[];
}

/**
 * reconcile merges next into prev by node id. A node whose id was shown
 * before keeps its object, updated in place, so VS Code's element lookups
 * stay valid. A node that moved to another parent, or a change of the roots,
 * makes the whole tree refresh: VS Code refuses an id registered twice,
 * which refreshing two parents one by one could briefly do.
 */
export function reconcile(prev: readonly NodeView[], next: readonly NodeView[]): Reconciled {
	const old = new Map<string, { node: NodeView; parent: string }>();
	const index = (nodes: readonly NodeView[], parent: string) => {
		for (const n of nodes) {
			old.set(n.id, { node: n, parent });
			index(n.children, n.id);
		}
	};
	index(prev, '');
	const changed = new Set<NodeView>();
	let moved = false;
	const adopt = (n: NodeView, parent: string): NodeView => {
		const children = n.children.map((c) => adopt(c, n.id));
		const was = old.get(n.id);
		if (!was || was.node.kind !== n.kind) {
			return { ...n, children };
		}
		if (was.parent !== parent) {
			moved = true;
		}
		const o = was.node;
		if (!sameOwn(o, n) || !sameIds(o.children, children)) {
			changed.add(o);
		}
		Object.assign(o, n, { children });
		for (const k of optional) {
			if (n[k] === undefined) {
				delete o[k];
			}
		}
		return o;
	};
	const roots = next.map((n) => adopt(n, ''));
	if (moved || !sameIds(prev, roots)) {
		return { roots, changed: 'all' };
	}
	return { roots, changed: [...changed] };
}

const optional = ['icon', 'reveal', 'ref', 'open'] as const;

function sameIds(a: readonly NodeView[], b: readonly NodeView[]): boolean {
	return a.length === b.length && a.every((n, i) => n === b[i]);
}

/**
 * sameOwn compares what a node shows, apart from its children. Expanded vs
 * collapsed is not a change: VS Code keeps the user's choice for a node
 * with an id, and refreshing it would only re-fetch its children.
 */
function sameOwn(a: NodeView, b: NodeView): boolean {
	const shape = (c: NodeView['collapsible']) => (c === 'none' ? 'none' : 'some');
	return (
		a.kind === b.kind &&
		a.label === b.label &&
		a.description === b.description &&
		a.tooltip === b.tooltip &&
		a.contextValue === b.contextValue &&
		shape(a.collapsible) === shape(b.collapsible) &&
		JSON.stringify([a.icon, a.reveal, a.ref, a.open]) === JSON.stringify([b.icon, b.reveal, b.ref, b.open])
	);
}
