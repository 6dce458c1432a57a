// The plan sidebar as plain data: which nodes, labels, icons and context
// values. Kept free of the vscode module so it is unit-tested in node; the
// TreeDataProvider only maps these views onto vscode.TreeItem.

import type { EvidenceRef, ItemStatus, PlanItem, PlanResult, Range } from './protocol';

/** A codicon id plus an optional theme color id (e.g. `testing.iconPassed`). */
export interface IconView {
	id: string;
	color?: string;
}

/** What a click on an item opens: the plan file at the item's first line. */
export interface RevealTarget {
	uri: string;
	range: Range;
}

/** What a click on an evidence node opens: a file (at a 1-based line, 0 for none). */
export interface OpenTarget {
	uri: string;
	line: number;
}

/** The plan item a node stands for, as server commands address it. */
export interface ItemRef {
	id: number;
	uri: string;
	subject: string;
}

/** One node of the sidebar. `id` is stable across refreshes so expansion survives. */
export interface NodeView {
	id: string;
	kind: 'plan' | 'group' | 'item' | 'message' | 'evidence';
	label: string;
	description: string;
	/** Plain text (not markdown): evidence and reasons are user text. */
	tooltip: string;
	icon?: IconView;
	/** `planls.plan.<state>`, `planls.group`, `planls.item.<status>[.blocked]`, `planls.message`. */
	contextValue: string;
	collapsible: 'none' | 'expanded' | 'collapsed';
	children: NodeView[];
	reveal?: RevealTarget;
	/** Set on evidence nodes naming a file that exists. */
	open?: OpenTarget;
	/** Set on plan items with an id and on plan nodes (id 0: the plan itself). */
	ref?: ItemRef;
}

/** Which welcome view the sidebar shows; `ready` means the tree has nodes. */
export type ViewState = 'starting' | 'serverError' | 'noFolder' | 'noPlan' | 'notApproved' | 'ready';

/** Lifecycle of the language client as the sidebar needs to know it. */
export type ServerState = 'starting' | 'running' | 'error' | 'noFolder';

/**
 * viewState picks the welcome view. A tree with nodes hides any welcome
 * content, so when every existing plan awaits approval the tree stays empty
 * and the Approve plan button shows.
 */
export function viewState(server: ServerState, plans: readonly PlanResult[]): ViewState {
	switch (server) {
		case 'starting':
			return 'starting';
		case 'error':
			return 'serverError';
		case 'noFolder':
			return 'noFolder';
	}
	const existing = plans.filter((p) => p.exists);
	if (existing.length === 0) {
		return 'noPlan';
	}
	return existing.some((p) => p.approved) ? 'ready' : 'notApproved';
}

/** Codicon per status; blocked wins over pending because it is what stops work. */
export function itemIcon(item: Pick<PlanItem, 'status' | 'blocked'>): IconView {
	if (item.blocked && (item.status === 'pending' || item.status === 'in_progress')) {
		return { id: 'lock', color: 'list.warningForeground' };
	}
	return statusIcons[item.status];
}

const statusIcons: Record<ItemStatus, IconView> = {
	pending: { id: 'circle-large-outline' },
	in_progress: { id: 'play-circle', color: 'charts.blue' },
	completed: { id: 'pass-filled', color: 'testing.iconPassed' },
	deferred: { id: 'debug-step-over', color: 'disabledForeground' },
	draft: { id: 'circle-small' },
};

const statusWords: Record<ItemStatus, string> = {
	pending: 'pending',
	in_progress: 'in progress',
	completed: 'completed',
	deferred: 'deferred',
	draft: 'draft (plan not approved)',
};

const contextStatus: Record<ItemStatus, string> = {
	pending: 'pending',
	in_progress: 'inProgress',
	completed: 'completed',
	deferred: 'deferred',
	draft: 'draft',
};

function blockers(ids: readonly number[]): string {
	return ids.map((n) => `#${n}`).join(', ');
}

/** itemDescription is the grey text after an item's label: the proof for closed items, else why it waits. */
export function itemDescription(item: PlanItem): string {
	let d: string;
	switch (item.status) {
		case 'completed':
			d = item.evidence || 'completed';
			break;
		case 'deferred':
			d = item.reason || 'deferred';
			break;
		case 'in_progress':
			d = item.blocked && item.blockedBy.length > 0 ? `blocked by ${blockers(item.blockedBy)}` : item.activeForm || 'in progress';
			break;
		case 'pending':
			d = item.blocked && item.blockedBy.length > 0 ? `blocked by ${blockers(item.blockedBy)}` : item.owner ? `@${item.owner}` : '';
			break;
		default:
			d = '';
	}
	const v = verifyNote(item);
	if (v) {
		d = `${d} · ${v}`;
	}
	const drift = driftNote(item);
	return drift ? (d ? `${d} · ${drift}` : drift) : d;
}

/**
 * verifyNote is what needs attention in a completed item's verify state:
 * a failure, or weak evidence. "" otherwise (verified, or naming only what
 * cannot be checked offline; the tooltip says which).
 */
export function verifyNote(item: PlanItem): string {
	if (item.verify?.state === 'failed') {
		return 'verification failed';
	}
	return item.verify?.weak ? 'weak evidence' : '';
}

function driftNote(item: PlanItem): string {
	switch (item.drift) {
		case 'changed':
			return 'changed since approval';
		case 'missing':
			return 'missing from the plan file';
		case 'new':
			return item.status === 'draft' ? '' : 'new, not approved';
		default:
			return '';
	}
}

/** itemLabel is `#3 subject`, or the bare subject for drafts, which have no id yet. */
export function itemLabel(item: PlanItem): string {
	return item.id > 0 ? `#${item.id} ${item.subject}` : item.subject;
}

/** itemTooltip lists status, proof, owner and blockers, one per line. */
export function itemTooltip(item: PlanItem): string {
	const lines = [itemLabel(item), `Status: ${statusWords[item.status]}${item.blocked ? ', blocked' : ''}`];
	if (item.evidence) {
		lines.push(`Evidence: ${item.evidence}`);
	}
	if (item.reason) {
		lines.push(`Reason: ${item.reason}`);
	}
	if (item.owner) {
		lines.push(`Owner: ${item.owner}`);
	}
	if (item.activeForm && item.status === 'in_progress') {
		lines.push(`Now: ${item.activeForm}`);
	}
	if (item.blockedBy.length > 0) {
		lines.push(`Blocked by: ${blockers(item.blockedBy)}`);
	}
	if (item.verify) {
		const v = item.verify;
		lines.push(`Verify: ${v.weak ? 'weak evidence, names nothing checkable' : v.state}${v.reason && !v.weak ? `: ${v.reason}` : ''}`);
	}
	const drift = driftNote(item);
	if (drift) {
		lines.push(`Plan file: ${drift}`);
	}
	return lines.join('\n');
}

const refIcons: Record<EvidenceRef['state'], IconView> = {
	verified: { id: 'pass', color: 'testing.iconPassed' },
	failed: { id: 'error', color: 'list.errorForeground' },
	unverifiable: { id: 'question' },
};

/** evidenceNode is one reference of a completed item's evidence: a commit with its subject and date, a file that opens on click. */
export function evidenceNode(itemID: string, ref: EvidenceRef, index: number): NodeView {
	let label = ref.text.replace(/`/g, '');
	let description = ref.state === 'verified' ? '' : ref.detail;
	if (ref.commit) {
		label = `${ref.commit.id.slice(0, 12)} ${ref.commit.subject}`;
		description = `${ref.commit.date.slice(0, 10)} · ${ref.commit.onHead ? 'on HEAD' : ref.commit.branch ? `on ${ref.commit.branch}` : 'on no branch'}`;
	}
	const node: NodeView = {
		id: `${itemID}:evidence:${index}`,
		kind: 'evidence',
		label,
		description,
		tooltip: `${ref.kind}: ${ref.detail}`,
		icon: ref.kind === 'commit' && ref.state === 'verified' ? { id: 'git-commit' } : refIcons[ref.state],
		contextValue: `planls.evidence.${ref.kind}`,
		collapsible: 'none',
		children: [],
	};
	if (ref.uri && (ref.kind === 'file' || ref.kind === 'test')) {
		node.open = { uri: ref.uri, line: ref.line };
	}
	return node;
}

/** Remembered expand/collapse choices by node id; absent means expanded. */
export type Expansion = ReadonlyMap<string, boolean>;

function collapsible(id: string, expansion: Expansion): 'expanded' | 'collapsed' {
	return expansion.get(id) === false ? 'collapsed' : 'expanded';
}

function itemNode(plan: PlanResult, item: PlanItem, index: number, expansion: Expansion): NodeView {
	const ctx = `planls.item.${contextStatus[item.status]}${item.blocked ? '.blocked' : ''}`;
	const node: NodeView = {
		id: item.id > 0 ? `item:${plan.planUri}#${item.id}` : `draft:${plan.planUri}#${index}`,
		kind: 'item',
		label: itemLabel(item),
		description: itemDescription(item),
		tooltip: itemTooltip(item),
		icon: itemIcon(item),
		contextValue: ctx,
		collapsible: 'none',
		children: [],
	};
	// Commits and files the evidence names, under the item.
	const refs = item.evidenceRefs.filter((r) => r.commit !== null || r.uri !== '' || r.state === 'failed');
	node.children = refs.map((r, i) => evidenceNode(node.id, r, i));
	if (node.children.length > 0) {
		node.collapsible = collapsible(node.id, expansion);
	}
	if (item.range) {
		node.reveal = { uri: plan.planUri, range: item.range };
	}
	if (item.id > 0) {
		node.ref = { id: item.id, uri: plan.planUri, subject: item.subject };
	}
	return node;
}

function planLabel(plan: PlanResult): string {
	if (plan.title) {
		return plan.title;
	}
	const slash = plan.planUri.lastIndexOf('/');
	return slash >= 0 ? decodeURIComponent(plan.planUri.slice(slash + 1)) : 'Plan';
}

/** planDescription is `3/7 open` plus what needs attention. */
export function planDescription(plan: PlanResult): string {
	if (!plan.approved) {
		return 'not approved';
	}
	const parts = [`${plan.open}/${plan.total} open`];
	if (plan.needsReapproval) {
		parts.push('changed, re-approve');
	}
	if (plan.stateError) {
		parts.push('state error');
	}
	return parts.join(' · ');
}

function planContext(plan: PlanResult): string {
	if (!plan.approved) {
		return 'planls.plan.unapproved';
	}
	return plan.needsReapproval ? 'planls.plan.reapprove' : 'planls.plan.approved';
}

function planIcon(plan: PlanResult): IconView {
	if (plan.stateError) {
		return { id: 'error', color: 'list.errorForeground' };
	}
	if (!plan.approved || plan.needsReapproval) {
		return { id: 'unverified', color: 'list.warningForeground' };
	}
	return plan.open === 0 ? { id: 'pass-filled', color: 'testing.iconPassed' } : { id: 'checklist' };
}

function planNode(plan: PlanResult, expansion: Expansion): NodeView {
	const id = `plan:${plan.planUri || plan.root}`;
	const children: NodeView[] = [];
	if (plan.stateError) {
		children.push({
			id: `${id}:stateError`,
			kind: 'message',
			label: plan.stateError,
			description: '',
			tooltip: plan.stateError,
			icon: { id: 'error', color: 'list.errorForeground' },
			contextValue: 'planls.message',
			collapsible: 'none',
			children: [],
		});
	}
	const seen = new Map<string, number>();
	let index = 0;
	for (const group of plan.groups) {
		const items = group.items.map((it) => itemNode(plan, it, index++, expansion));
		if (group.name === '') {
			children.push(...items);
			continue;
		}
		// Two groups may share a heading; the count keeps their ids distinct.
		const n = (seen.get(group.name) ?? 0) + 1;
		seen.set(group.name, n);
		const gid = `group:${plan.planUri}#${group.name}${n > 1 ? `#${n}` : ''}`;
		const open = group.items.filter((it) => it.status === 'pending' || it.status === 'in_progress').length;
		children.push({
			id: gid,
			kind: 'group',
			label: group.name,
			description: plan.approved ? `${open}/${group.items.length}` : '',
			tooltip: `${group.name}: ${open} of ${group.items.length} open`,
			icon: { id: 'list-tree' },
			contextValue: 'planls.group',
			collapsible: items.length > 0 ? collapsible(gid, expansion) : 'none',
			children: items,
		});
	}
	return {
		id,
		kind: 'plan',
		label: planLabel(plan),
		description: planDescription(plan),
		tooltip: `${planLabel(plan)}\n${plan.planUri}\n${planDescription(plan)}`,
		icon: planIcon(plan),
		contextValue: planContext(plan),
		collapsible: children.length > 0 ? collapsible(id, expansion) : 'none',
		children,
		reveal: plan.planUri ? { uri: plan.planUri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } } : undefined,
		ref: { id: 0, uri: plan.planUri, subject: planLabel(plan) },
	};
}

/**
 * buildTree returns the sidebar's root nodes: one per existing plan (two
 * workspace folders in one root share a plan and show it once). It is empty
 * unless viewState is `ready`, so the welcome view can show instead.
 */
export function buildTree(state: ViewState, plans: readonly PlanResult[], expansion: Expansion): NodeView[] {
	if (state !== 'ready') {
		return [];
	}
	const seen = new Set<string>();
	const roots: NodeView[] = [];
	for (const plan of plans) {
		const key = plan.planUri || plan.root;
		if (!plan.exists || seen.has(key)) {
			continue;
		}
		seen.add(key);
		roots.push(planNode(plan, expansion));
	}
	return roots;
}

/**
 * statusBarText is `Plan 3/7 open` summed over approved plans,
 * `Plan not approved` when plans exist but none is approved, and undefined
 * (hide the item) when there is no plan.
 */
export function statusBarText(plans: readonly PlanResult[]): string | undefined {
	const seen = new Set<string>();
	let open = 0;
	let total = 0;
	let approved = 0;
	let existing = 0;
	for (const p of plans) {
		const key = p.planUri || p.root;
		if (!p.exists || seen.has(key)) {
			continue;
		}
		seen.add(key);
		existing++;
		if (p.approved) {
			approved++;
			open += p.open;
			total += p.total;
		}
	}
	if (existing === 0) {
		return undefined;
	}
	return approved === 0 ? 'Plan not approved' : `Plan ${open}/${total} open`;
}

/**
 * pickableItems lists the items a command picker offers for an action, in
 * plan order; the statuses follow the server's code actions (lsp/codeaction.go).
 */
export function pickableItems(plans: readonly PlanResult[], action: 'complete' | 'defer' | 'start' | 'reopen'): ItemRef[] {
	const wanted: Record<typeof action, readonly ItemStatus[]> = {
		complete: ['pending', 'in_progress'],
		defer: ['pending', 'in_progress'],
		start: ['pending', 'deferred'],
		// A completed item reopens with a reason (a person's correction).
		reopen: ['in_progress', 'deferred', 'completed'],
	};
	const out: ItemRef[] = [];
	for (const p of plans) {
		if (!p.exists || !p.approved) {
			continue;
		}
		for (const g of p.groups) {
			for (const it of g.items) {
				if (it.id > 0 && wanted[action].includes(it.status)) {
					out.push({ id: it.id, uri: p.planUri, subject: it.subject });
				}
			}
		}
	}
	return out;
}
