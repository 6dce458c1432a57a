// A stand-in for the `vscode` module so extension code can run in plain
// node. The few classes whose values tests inspect (TreeItem, ThemeIcon,
// ThemeColor, EventEmitter) are real; every other property is a callable,
// constructible proxy that tests may overwrite (e.g. workspace.workspaceFolders).
// `version` is a real string because vscode-languageclient checks it.

import Module = require('node:module');

type Loader = (request: string, ...rest: unknown[]) => unknown;

/** TreeItem keeps what the constructor got, like vscode.TreeItem. */
export class TreeItem {
	id?: string;
	description?: string;
	tooltip?: string;
	contextValue?: string;
	iconPath?: unknown;
	command?: { command: string; title: string; arguments?: unknown[] };
	constructor(
		public label: string,
		public collapsibleState: number,
	) {}
}

/** ThemeColor records its id. */
export class ThemeColor {
	constructor(public id: string) {}
}

/** ThemeIcon records its id and color. */
export class ThemeIcon {
	constructor(
		public id: string,
		public color?: ThemeColor,
	) {}
}

/** EventEmitter is a synchronous emitter with vscode's event/fire/dispose shape. */
export class EventEmitter<T> {
	private listeners: ((e: T) => void)[] = [];
	event = (l: (e: T) => void) => {
		this.listeners.push(l);
		return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
	};
	fire(e: T): void {
		for (const l of [...this.listeners]) {
			l(e);
		}
	}
	dispose(): void {
		this.listeners = [];
	}
}

/** Uri keeps the string it was parsed from. */
export class Uri {
	private constructor(public readonly value: string) {}
	static parse(value: string): Uri {
		return new Uri(value);
	}
	toString(): string {
		return this.value;
	}
}

/** Range records its four numbers (0-based, like vscode.Range). */
export class Range {
	constructor(
		public startLine: number,
		public startCharacter: number,
		public endLine: number,
		public endCharacter: number,
	) {}
}

/** The collapsible states, with vscode's numbers. */
export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 };

let stub: Record<string, unknown> | undefined;

/**
 * installVscodeStub makes require('vscode') return the stub for the rest of
 * the process and returns it, so tests can set e.g. stub.workspace.workspaceFolders.
 */
export function installVscodeStub(): Record<string, any> {
	if (stub) {
		return stub;
	}
	const handler: ProxyHandler<object> = {
		get(target, prop) {
			if (prop === '__esModule' || prop === 'then') {
				return undefined;
			}
			const t = target as Record<string | symbol, unknown>;
			if (!(prop in t)) {
				t[prop] = new Proxy(function () {}, handler);
			}
			return t[prop];
		},
		apply: () => new Proxy(function () {}, handler),
		construct: () => new Proxy(function () {}, handler),
	};
	const root = Object.assign(function () {}, {
		version: '1.100.0',
		TreeItem,
		ThemeIcon,
		ThemeColor,
		EventEmitter,
		TreeItemCollapsibleState,
		Uri,
		Range,
	});
	stub = new Proxy(root, handler) as Record<string, unknown>;
	const mod = Module as unknown as { _load: Loader };
	const load = mod._load;
	const s = stub;
	mod._load = function (this: unknown, request: string, ...rest: unknown[]) {
		return request === 'vscode' ? s : load.call(this, request, ...rest);
	};
	return stub;
}
