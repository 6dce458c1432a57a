// Optional user configuration: $XDG_CONFIG_HOME/planls-pi/config.json (or
// ~/.config/planls-pi/config.json), shaped like rpiv-todo's "guidance"
// block, so the prompt snippet and guidelines can be replaced (rpiv-todo's reference,
// "Prompt guidance": both are overridable). The file is only read.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** Guidance is what the tool adds to pi's system prompt. */
export interface Guidance {
	promptSnippet: string;
	promptGuidelines: string[];
}

/** configPath is where the configuration is read from. */
export function configPath(): string {
	const xdg = process.env.XDG_CONFIG_HOME?.trim();
	const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".config");
	return join(base, "planls-pi", "config.json");
}

/**
 * guidance returns the defaults with the file's valid overrides: a
 * non-blank promptSnippet string, a non-empty promptGuidelines array of
 * non-blank strings. A missing file is silent; a malformed file or value is
 * reported through warn and ignored.
 */
export function guidance(defaults: Guidance, warn: (msg: string) => void = console.warn): Guidance {
	const path = configPath();
	let raw: string;
	try {
		raw = readFileSync(path, "utf8");
	} catch {
		return defaults;
	}
	let cfg: unknown;
	try {
		cfg = JSON.parse(raw);
	} catch (e) {
		warn(`planls-pi: ${path} is not JSON (${(e as Error).message}); using the default guidance`);
		return defaults;
	}
	const g = (cfg as { guidance?: Record<string, unknown> } | null)?.guidance;
	if (!g || typeof g !== "object") return defaults;
	const out = { ...defaults };
	if (g.promptSnippet !== undefined) {
		if (typeof g.promptSnippet === "string" && g.promptSnippet.trim() !== "") out.promptSnippet = g.promptSnippet;
		else warn(`planls-pi: ${path}: guidance.promptSnippet must be a non-blank string; using the default`);
	}
	if (g.promptGuidelines !== undefined) {
		const list = g.promptGuidelines;
		if (Array.isArray(list) && list.length > 0 && list.every((x) => typeof x === "string" && x.trim() !== "")) out.promptGuidelines = list as string[];
		else warn(`planls-pi: ${path}: guidance.promptGuidelines must be a non-empty list of non-blank strings; using the default`);
	}
	return out;
}
