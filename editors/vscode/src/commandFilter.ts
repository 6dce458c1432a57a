// When the server advertises executeCommandProvider,
// vscode-languageclient registers each command id globally; a restart or a
// second client then fails with "command already exists" and never starts.
// The extension registers the planls.* commands once itself, and the client
// is built without its execute-command feature.

/** The LSP method whose client feature registers server command ids. */
export const executeCommandMethod = 'workspace/executeCommand';

/** Anything with an optional registrationType, like a languageclient feature. */
export interface FeatureLike {
	registrationType?: { method?: string };
}

/**
 * registersServerCommands reports whether a languageclient feature would
 * register the server's command ids as VS Code commands. It reads the
 * feature's registrationType without assuming its class, so it keeps
 * working across vscode-languageclient versions.
 */
export function registersServerCommands(feature: unknown): boolean {
	if (typeof feature !== 'object' || feature === null) {
		return false;
	}
	try {
		const rt = (feature as FeatureLike).registrationType;
		return rt !== undefined && rt !== null && rt.method === executeCommandMethod;
	} catch {
		// Some features throw from the getter before they are initialized.
		return false;
	}
}
