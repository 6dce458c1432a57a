// The current commit, offered as default evidence when completing an item.

import { execFile } from 'child_process';

/**
 * currentCommit returns the short hash of HEAD in dir, or undefined when dir
 * is not in a git repository, has no commit yet, git is missing, or git
 * takes longer than timeoutMs. It never rejects: a missing default must not
 * stop the prompt.
 */
export function currentCommit(dir: string, timeoutMs = 2000): Promise<string | undefined> {
	return new Promise((resolve) => {
		try {
			execFile('git', ['rev-parse', '--short', 'HEAD'], { cwd: dir, timeout: timeoutMs, windowsHide: true }, (err, stdout) => {
				const hash = String(stdout ?? '').trim();
				resolve(!err && /^[0-9a-f]{4,64}$/.test(hash) ? hash : undefined);
			});
		} catch {
			resolve(undefined);
		}
	});
}
