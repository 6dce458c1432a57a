// Server commands reach the extension from three places: code actions (the
// server's argument object), sidebar menus (a tree node) and the palette
// (nothing). normalizeArg maps them to one shape.

/** The argument object of planls.complete/defer/start/reopen/approve (docs/PROTOCOL.md). */
export interface CommandArg {
	/** Plan item id; absent for planls.approve. */
	id?: number;
	/** A file or folder URI inside the workspace root. */
	uri?: string;
	evidence?: string;
	reason?: string;
	/** Carried for prompts only; never sent to the server. */
	subject?: string;
	[key: string]: unknown;
}

function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * normalizeArg accepts a server argument object, a sidebar node (with `ref`),
 * a bare item id, or an array wrapping one of those, and returns a fresh
 * CommandArg; undefined when nothing usable was given.
 */
export function normalizeArg(arg: unknown): CommandArg | undefined {
	if (Array.isArray(arg)) {
		return arg.length > 0 ? normalizeArg(arg[0]) : undefined;
	}
	if (typeof arg === 'number' && Number.isInteger(arg) && arg > 0) {
		return { id: arg };
	}
	if (!isObject(arg)) {
		return undefined;
	}
	if (isObject(arg.ref)) {
		const ref = arg.ref;
		const out: CommandArg = {};
		if (typeof ref.id === 'number' && ref.id > 0) {
			out.id = ref.id;
		}
		if (typeof ref.uri === 'string' && ref.uri !== '') {
			out.uri = ref.uri;
		}
		if (typeof ref.subject === 'string') {
			out.subject = ref.subject;
		}
		return out;
	}
	// A server argument object: keep unknown fields, the server may need them.
	return { ...arg };
}

/**
 * serverArg is what goes to workspace/executeCommand: the argument without
 * client-only fields, plus the prompted field when given.
 */
export function serverArg(arg: CommandArg, field?: 'evidence' | 'reason', value?: string): Record<string, unknown> {
	const out: Record<string, unknown> = { ...arg };
	delete out.subject;
	if (field && value !== undefined) {
		out[field] = value;
	}
	return out;
}
