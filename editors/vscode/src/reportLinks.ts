// Where a link clicked in the plan report's webview goes. The page posts
// the href of every link that leaves it; only two kinds are followed: a
// file:// URL inside the report's workspace root (opened in the editor at
// the line its #L fragment names) and an http(s) URL (opened by the
// system's browser). Anything else is dropped. Pure, so it is unit-tested.

import * as path from 'path';

/** What a click in the report does. */
export type LinkTarget = { kind: 'file'; path: string; line: number } | { kind: 'web'; url: string };

/**
 * linkTarget maps href (as the page posted it) to a target, or undefined
 * when it must not be followed. root is the workspace root as a file
 * system path; platform picks the path rules (win32 compares case-blind).
 */
export function linkTarget(href: unknown, root: string, platform: NodeJS.Platform = process.platform): LinkTarget | undefined {
	if (typeof href !== 'string') {
		return undefined;
	}
	let u: URL;
	try {
		u = new URL(href);
	} catch {
		return undefined;
	}
	if (u.protocol === 'https:' || u.protocol === 'http:') {
		return u.host ? { kind: 'web', url: u.toString() } : undefined;
	}
	if (u.protocol !== 'file:' || (u.host !== '' && u.host !== 'localhost')) {
		return undefined;
	}
	const m = /^#L(\d+)$/.exec(u.hash);
	const line = m ? Number(m[1]) : 0;
	const p = platform === 'win32' ? path.win32 : path.posix;
	let file = decodeURIComponent(u.pathname);
	if (platform === 'win32') {
		file = file.replace(/^\/([A-Za-z]:)/, '$1');
	}
	file = p.normalize(file);
	const rel = p.relative(p.normalize(root), file);
	const outside = rel === '' || rel === '..' || rel.startsWith('..' + p.sep) || p.isAbsolute(rel);
	return outside ? undefined : { kind: 'file', path: file, line };
}
