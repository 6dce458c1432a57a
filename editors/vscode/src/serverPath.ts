// Finding the planls binary: the setting, else PATH, else the places
// `go install` writes to (a VS Code started from a desktop menu often lacks
// ~/go/bin on PATH). Pure apart from the injected file probe, so it is
// unit-tested without touching the real PATH.

import * as path from 'path';

/**
 * The command that installs the server today, run in a clone of the planls
 * repository (the editor READMEs' command); shown in every "not found"
 * error and copied by its button.
 */
export const installCommand = 'go install ./cmd/planls';

/** The command that will install the server once the module is published. */
export const publishedInstallCommand = 'go install github.com/planls/planls/cmd/planls@latest';

/** How to install the server, as every message and the manifest say it. */
export const installHint = `run \`${installCommand}\` in a clone of the planls repository (\`${publishedInstallCommand}\` once the module is published)`;

/** Either the server executable or a message for the user. */
export type Resolution = { ok: true; command: string } | { ok: false; message: string };

/** Where the search looks; injectable for tests. */
export interface SearchEnv {
	/** The setting `planls.path`; "" when unset. */
	setting: string;
	/** process.env.PATH (or Path on Windows). */
	pathVar: string | undefined;
	gopath: string | undefined;
	gobin: string | undefined;
	home: string;
	platform: NodeJS.Platform;
	/** True when p is a regular file this process may execute. */
	isExecutable: (p: string) => boolean;
}

/** notFoundMessage is shown when neither the setting nor the search finds planls. */
export function notFoundMessage(): string {
	return `planls was not found on PATH. To install it, ${installHint} and put $(go env GOPATH)/bin on PATH, or set "planls.path".`;
}

/** badSettingMessage is shown when `planls.path` names no executable file. */
export function badSettingMessage(setting: string): string {
	return `"planls.path" is set to ${setting}, which is not an executable file. Fix the setting, or to install planls, ${installHint}.`;
}

function expandHome(p: string, home: string): string {
	return p === '~' || p.startsWith('~/') ? home + p.slice(1) : p;
}

/**
 * resolveServer returns the planls executable to run. A set `planls.path`
 * is used as is (after `~` expansion) and is an error when not executable,
 * rather than silently falling back to another planls.
 */
export function resolveServer(env: SearchEnv): Resolution {
	const setting = env.setting.trim();
	if (setting !== '') {
		const p = expandHome(setting, env.home);
		return env.isExecutable(p) ? { ok: true, command: p } : { ok: false, message: badSettingMessage(setting) };
	}
	const win = env.platform === 'win32';
	const names = win ? ['planls.exe'] : ['planls'];
	const join = win ? path.win32.join : path.posix.join;
	const dirs = (env.pathVar ?? '').split(win ? ';' : ':').filter((d) => d !== '');
	if (env.gobin) {
		dirs.push(env.gobin);
	}
	for (const gp of (env.gopath ?? '').split(win ? ';' : ':').filter((d) => d !== '')) {
		dirs.push(join(gp, 'bin'));
	}
	if (env.home) {
		dirs.push(join(env.home, 'go', 'bin'));
	}
	for (const dir of dirs) {
		for (const name of names) {
			const candidate = join(dir, name);
			if (env.isExecutable(candidate)) {
				return { ok: true, command: candidate };
			}
		}
	}
	return { ok: false, message: notFoundMessage() };
}
