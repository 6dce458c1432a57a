// The todo tool's parameters and prompt guidance (rpiv-todo: "Parameters",
// "Batching with ops", "Prompt guidance"). planls validates every field and
// answers with the seed's messages; the schema documents, it does not judge.
import { Type } from "typebox";

export const TOOL_NAME = "todo";
export const TOOL_LABEL = "Todo";

const strEnum = <T extends string>(values: readonly T[], description: string) =>
	Type.Unsafe<T>({ type: "string", enum: [...values], description });

const ids = (description: string) => Type.Optional(Type.Array(Type.Integer(), { description }));
const text = (description: string) => Type.Optional(Type.String({ description }));

/** The fields of one call: the top level, or one element of `ops`. */
function fields() {
	return {
		action: Type.Optional(
			strEnum(["create", "update", "list", "get", "delete", "clear"] as const, "what to do; omit when passing ops"),
		),
		subject: text("task text (create; required there). Plan items' text cannot change"),
		blockedBy: ids("create: the ids this task waits on"),
		description: text("long-form detail (create, update)"),
		activeForm: text("present-continuous label shown while in_progress"),
		owner: text("agent or person assigned"),
		metadata: Type.Optional(
			Type.Record(Type.String(), Type.Unknown(), { description: "merged key by key on update; a null value deletes that key" }),
		),
		evidence: text("required with status completed: the check that proves it (command + result, commit, or test name)"),
		reason: text("required with status deferred: why it is descoped"),
		addBlockedBy: ids("update: dependency ids to add (do not resend the whole list)"),
		removeBlockedBy: ids("update: dependency ids to remove"),
		id: Type.Optional(Type.Integer({ description: "task id (update, get, delete)" })),
		status: Type.Optional(
			strEnum(
				["pending", "in_progress", "completed", "deferred", "deleted"] as const,
				"update: the new status; list: a status filter",
			),
		),
		includeDeleted: Type.Optional(Type.Boolean({ description: "list: show tombstones (default false)" })),
	};
}

/** TodoParams is the tool's parameter schema: an action with its fields, or an atomic `ops` batch. */
export const TodoParams = Type.Object({
	...fields(),
	ops: Type.Optional(
		Type.Array(Type.Object(fields()), {
			description:
				"atomic batch instead of action: each element is one call's action and fields; the first invalid op rejects the whole batch",
		}),
	),
});

export const DESCRIPTION =
	"Track this project's plan items and todos in .planls/state.json, shared with the planls language server and CLI. " +
	"Actions: create, update (status, fields, dependencies), list (optionally by status), get, delete (tombstone), clear (agent todos only); " +
	"or ops for an atomic batch. Status: pending, in_progress, completed (needs evidence), deferred (needs a reason), deleted (tombstone).";

export const PROMPT_SNIPPET = "Track plan items and todos (shared with the editor through planls)";

// Ten bullets, each naming the tool (pi appends them flat to its rules).
export const PROMPT_GUIDELINES: string[] = [
	"Use `todo` for work of three or more steps, for a list of tasks the user gives you, and right after new instructions to capture them; skip it for one trivial step or a plain question. Call todo list first so you never add a duplicate of a plan item.",
	"With `todo`, set a task in_progress before you start on it and keep exactly one task in_progress at a time.",
	"With `todo`, mark each task completed as soon as it is done, never several at the end.",
	"Never complete a `todo` task while tests fail, the work is partial or an error is unresolved: keep it in_progress and create a todo for the blocker.",
	'To change a task\'s status, call `todo` with update, the id and the target status, e.g. {"action":"update","id":3,"status":"in_progress","activeForm":"writing tests"}; an update without a field to change is rejected.',
	'Completing a `todo` task needs evidence, the check that proves it (command and result, commit, or test name): {"action":"update","id":3,"status":"completed","evidence":"npm test: 42 passed"}. Without evidence it is not done.',
	"`todo` tasks marked [plan] are the approved plan's items, verbatim: they cannot be edited or deleted. Complete each with evidence, or set it deferred with a reason and tell the user why; never tell the user the work is done while plan items are open.",
	"`todo` dependencies: pass blockedBy on create; on update use addBlockedBy / removeBlockedBy (they merge; do not resend the list). Cycles are rejected.",
	'To open or close several `todo` tasks, send one call with ops, e.g. {"ops":[{"action":"update","id":1,"status":"completed","evidence":"..."},{"action":"update","id":2,"status":"deferred","reason":"..."}]}: each op carries its own evidence or reason, and the batch is atomic.',
	"`todo` list hides deleted tasks unless includeDeleted is true, and status filters it to one status. Keep subjects short and imperative; put detail in description.",
];
