// Shapes of the planls editor protocol (docs/PROTOCOL.md) and a defensive
// decoder: the server is written in parallel and may send partial or newer
// shapes, and a bad reply must never break the sidebar.

/** LSP position: 0-based line, 0-based UTF-16 character. */
export interface Position {
	line: number;
	character: number;
}

/** LSP range (0-based, end exclusive). */
export interface Range {
	start: Position;
	end: Position;
}

/** Plan item status as sent by `planls/plan`; `draft` only in a plan not approved. */
export type ItemStatus = 'pending' | 'in_progress' | 'completed' | 'deferred' | 'draft';

/** How the item's bullet relates to the approved plan. */
export type Drift = 'same' | 'changed' | 'new' | 'missing';

/** One plan item of the `planls/plan` result. */
export interface PlanItem {
	/** Plan item id (`#3`); 0 for items of a plan not approved. */
	id: number;
	subject: string;
	status: ItemStatus;
	blocked: boolean;
	blockedBy: number[];
	evidence: string;
	reason: string;
	owner: string;
	activeForm: string;
	drift: Drift;
	/** Where the item's first line is in the plan file; null when missing from the file. */
	range: Range | null;
}

/** A `##` group of the plan; `name` is "" for items before any group. */
export interface PlanGroup {
	name: string;
	items: PlanItem[];
}

/** The `planls/plan` result for one workspace root. */
export interface PlanResult {
	root: string;
	planUri: string;
	exists: boolean;
	approved: boolean;
	needsReapproval: boolean;
	title: string;
	/** Pending plus in-progress plan items. */
	open: number;
	total: number;
	stateError: string;
	groups: PlanGroup[];
}

/** Params of the `planls/stateChanged` notification. */
export interface StateChangedParams {
	root: string;
	revision: number;
}

/** Request method that returns a PlanResult. */
export const planRequest = 'planls/plan';
/** Notification the server sends after any writer changed a plan or the state. */
export const stateChangedNotification = 'planls/stateChanged';

/** Server command ids (docs/PROTOCOL.md "Commands"). */
export const serverCommands = ['planls.complete', 'planls.defer', 'planls.start', 'planls.reopen', 'planls.approve', 'planls.todo'] as const;

const statuses: readonly string[] = ['pending', 'in_progress', 'completed', 'deferred', 'draft'];
const drifts: readonly string[] = ['same', 'changed', 'new', 'missing'];

function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
	return typeof v === 'string' ? v : '';
}

function nonNegInt(v: unknown): number {
	return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

function position(v: unknown): Position | undefined {
	if (!isObject(v)) {
		return undefined;
	}
	return { line: nonNegInt(v.line), character: nonNegInt(v.character) };
}

function range(v: unknown): Range | null {
	if (!isObject(v)) {
		return null;
	}
	const start = position(v.start);
	const end = position(v.end);
	return start && end ? { start, end } : null;
}

function item(v: unknown): PlanItem | undefined {
	if (!isObject(v)) {
		return undefined;
	}
	const status = str(v.status);
	const drift = str(v.drift);
	return {
		id: nonNegInt(v.id),
		subject: str(v.subject),
		// An unknown status is shown as pending rather than dropped: hiding an
		// open item would be worse than showing it with a plain icon.
		status: (statuses.includes(status) ? status : 'pending') as ItemStatus,
		blocked: v.blocked === true,
		blockedBy: Array.isArray(v.blockedBy) ? v.blockedBy.filter((n): n is number => typeof n === 'number' && Number.isInteger(n)) : [],
		evidence: str(v.evidence),
		reason: str(v.reason),
		owner: str(v.owner),
		activeForm: str(v.activeForm),
		drift: (drifts.includes(drift) ? drift : 'same') as Drift,
		range: range(v.range),
	};
}

/**
 * decodePlan turns a `planls/plan` reply into a PlanResult, filling defaults
 * for missing or mistyped fields. It returns undefined when v is not an
 * object or has no planUri/root to key the plan on; it never throws.
 */
export function decodePlan(v: unknown): PlanResult | undefined {
	if (!isObject(v)) {
		return undefined;
	}
	const groups: PlanGroup[] = [];
	if (Array.isArray(v.groups)) {
		for (const g of v.groups) {
			if (!isObject(g)) {
				continue;
			}
			const items = Array.isArray(g.items) ? g.items.map(item).filter((i): i is PlanItem => i !== undefined) : [];
			groups.push({ name: str(g.name), items });
		}
	}
	const root = str(v.root);
	const planUri = str(v.planUri);
	if (root === '' && planUri === '') {
		return undefined;
	}
	return {
		root,
		planUri,
		exists: v.exists === true,
		approved: v.approved === true,
		needsReapproval: v.needsReapproval === true,
		title: str(v.title),
		open: nonNegInt(v.open),
		total: nonNegInt(v.total),
		stateError: str(v.stateError),
		groups,
	};
}

/** The text and error of a `todo` tool envelope returned by a server command. */
export interface EnvelopeSummary {
	text: string;
	/** details.error; "" when the call succeeded. */
	error: string;
}

/**
 * summarizeEnvelope reads `{"content":[{"type":"text","text":...}],"details":{"error":...}}`.
 * Anything else yields empty text and no error.
 */
export function summarizeEnvelope(v: unknown): EnvelopeSummary {
	if (!isObject(v)) {
		return { text: '', error: '' };
	}
	const text = Array.isArray(v.content)
		? v.content
				.filter(isObject)
				.map((c) => str(c.text))
				.filter((t) => t !== '')
				.join('\n')
		: '';
	const error = isObject(v.details) ? str(v.details.error) : '';
	return { text, error };
}
