// The input boxes behind `Complete #N…`, `Defer #N…` and `Reopen #N…`. Plain data so the
// exact wording is unit-tested; commands.ts passes it to showInputBox.

/** Options for vscode.window.showInputBox, minus the vscode types. */
export interface PromptSpec {
	title: string;
	prompt: string;
	placeHolder: string;
	value: string;
	/** Returns an error text for an answer that cannot be sent, else undefined. */
	validateInput: (value: string) => string | undefined;
}

/** Error shown in the input box when the evidence is blank. */
export const evidenceRequired = 'Evidence is required to complete a plan item.';
/** Error shown in the input box when the reason is blank. */
export const reasonRequired = 'A reason is required to defer a plan item.';
/** Error shown in the input box when the reason to reopen is blank. */
export const reopenReasonRequired = 'A reason is required to reopen a completed plan item.';

function heading(verb: string, id: number, subject: string): string {
	const s = subject.trim();
	return s ? `${verb} #${id}: ${s}` : `${verb} #${id}`;
}

/**
 * completePrompt asks for evidence; offered (the evidence the server's
 * one-click action offers: a commit that changes more than the plan, made
 * after the item's approval) is the default answer.
 */
export function completePrompt(id: number, subject: string, offered: string | undefined): PromptSpec {
	return {
		title: heading('Complete', id, subject),
		prompt: `Evidence that #${id} is done: a commit, PR, test run or link. Escape cancels.`,
		placeHolder: 'e.g. commit 1a2b3c4, PR #12, go test ./... passes',
		value: offered ?? '',
		validateInput: (v) => (v.trim() === '' ? evidenceRequired : undefined),
	};
}

/** deferPrompt asks why an item is put off; there is no sensible default. */
export function deferPrompt(id: number, subject: string): PromptSpec {
	return {
		title: heading('Defer', id, subject),
		prompt: `Why #${id} is deferred; it stays in the plan with this reason. Escape cancels.`,
		placeHolder: 'e.g. out of scope for this release, tracked in #42',
		value: '',
		validateInput: (v) => (v.trim() === '' ? reasonRequired : undefined),
	};
}

/**
 * reopenPrompt asks why a completed item is not done: reopening one is a
 * person's correction, and the journal keeps the reason with its evidence.
 */
export function reopenPrompt(id: number, subject: string): PromptSpec {
	return {
		title: heading('Reopen', id, subject),
		prompt: `Why #${id} is not done; its evidence stays in the journal. Escape cancels.`,
		placeHolder: 'e.g. the test passed only locally; CI fails',
		value: '',
		validateInput: (v) => (v.trim() === '' ? reopenReasonRequired : undefined),
	};
}
