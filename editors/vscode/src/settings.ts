// The server settings of docs/PROTOCOL.md, read from the `planls` section.

/** Diagnostic severities the server accepts for open items. */
export const severities = ['error', 'warning', 'information', 'hint'] as const;

/** Settings sent as initializationOptions and in didChangeConfiguration. */
export interface ServerSettings {
	planFiles: string[];
	severity: (typeof severities)[number];
	fadeClosed: boolean;
}

/** Defaults of docs/PROTOCOL.md "Settings". */
export const defaultSettings: ServerSettings = { planFiles: ['PLAN.md'], severity: 'information', fadeClosed: false };

/**
 * serverSettings reads the planls settings through get (a
 * WorkspaceConfiguration.get) and replaces values of the wrong type with the
 * defaults, so a typo in settings.json never reaches the server.
 */
export function serverSettings(get: (key: string) => unknown): ServerSettings {
	const planFiles = get('planFiles');
	const severity = get('severity');
	const fade = get('fadeClosed');
	const files = Array.isArray(planFiles) ? planFiles.filter((f): f is string => typeof f === 'string' && f.trim() !== '') : [];
	return {
		planFiles: files.length > 0 ? files : [...defaultSettings.planFiles],
		severity: severities.includes(severity as ServerSettings['severity']) ? (severity as ServerSettings['severity']) : defaultSettings.severity,
		fadeClosed: typeof fade === 'boolean' ? fade : defaultSettings.fadeClosed,
	};
}
