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
	/** A completed item's evidence checked offline (`planls verify`); null otherwise. */
	verify: ItemVerify | null;
	/** What a completed item's evidence names, in order; [] otherwise. */
	evidenceRefs: EvidenceRef[];
}

/** Outcome of verifying an item's evidence. */
export type VerifyState = 'verified' | 'unverifiable' | 'failed';

/** A completed item's verification. */
export interface ItemVerify {
	state: VerifyState;
	/** Why it failed or cannot be checked; "" when verified. */
	reason: string;
	/** The evidence names nothing checkable ("done", "works now"). */
	weak: boolean;
}

/** A commit the evidence names, as the repository has it. */
export interface EvidenceCommit {
	id: string;
	subject: string;
	/** Committer date, RFC 3339. */
	date: string;
	onHead: boolean;
	/** A local branch reaching it when HEAD does not; "" otherwise. */
	branch: string;
}

/** One reference of an item's evidence. */
export interface EvidenceRef {
	kind: 'commit' | 'file' | 'test' | 'command' | 'url';
	/** As written in the evidence. */
	text: string;
	state: VerifyState;
	detail: string;
	/** What opens it: the file (file and test references that resolved) or the URL; "" when none. */
	uri: string;
	/** 1-based line of a file reference; 0 when none. */
	line: number;
	commit: EvidenceCommit | null;
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
	/**
	 * Revision of the last `planls/stateChanged` for this root the answer
	 * shows (0 when none): a notification of no later revision is shown.
	 */
	revision: number;
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

const verifyStates: readonly string[] = ['verified', 'unverifiable', 'failed'];
const refKinds: readonly string[] = ['commit', 'file', 'test', 'command', 'url'];

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
		verify: verifyOf(v.verify),
		evidenceRefs: Array.isArray(v.evidenceRefs) ? v.evidenceRefs.map(evidenceRef).filter((r): r is EvidenceRef => r !== undefined) : [],
	};
}

function verifyOf(v: unknown): ItemVerify | null {
	if (!isObject(v) || !verifyStates.includes(str(v.state))) {
		return null;
	}
	return { state: str(v.state) as VerifyState, reason: str(v.reason), weak: v.weak === true };
}

function evidenceRef(v: unknown): EvidenceRef | undefined {
	if (!isObject(v) || !refKinds.includes(str(v.kind))) {
		return undefined;
	}
	const state = str(v.state);
	const c = v.commit;
	return {
		kind: str(v.kind) as EvidenceRef['kind'],
		text: str(v.text),
		state: (verifyStates.includes(state) ? state : 'unverifiable') as VerifyState,
		detail: str(v.detail),
		uri: str(v.uri),
		line: nonNegInt(v.line),
		commit: isObject(c)
			? { id: str(c.id), subject: str(c.subject), date: str(c.date), onHead: c.onHead === true, branch: str(c.branch) }
			: null,
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
		revision: nonNegInt(v.revision),
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

/**
 * forPeople rewords the one seed text meant for the agent: a plan item's
 * deferral asks it to "Tell the user this plan item is descoped and why:
 * <reason>"; here the user reads it, so it says "..., reason: <reason>".
 */
export function forPeople(text: string): string {
	return text.split('). Tell the user this plan item is descoped and why: ').join('), reason: ');
}
