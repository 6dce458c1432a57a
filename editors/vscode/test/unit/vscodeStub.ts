// A stand-in for the `vscode` module so code that only touches it lazily
// (vscode-languageclient's constructors) can be built in plain node. Every
// property is a callable, constructible proxy; `version` is a real string
// because the client checks it.

import Module = require('node:module');

type Loader = (request: string, ...rest: unknown[]) => unknown;

let installed = false;

/** installVscodeStub makes require('vscode') return the stub for the rest of the process. */
export function installVscodeStub(): void {
	if (installed) {
		return;
	}
	installed = true;
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
	const root = Object.assign(function () {}, { version: '1.100.0' });
	const stub = new Proxy(root, handler);
	const mod = Module as unknown as { _load: Loader };
	const load = mod._load;
	mod._load = function (this: unknown, request: string, ...rest: unknown[]) {
		return request === 'vscode' ? stub : load.call(this, request, ...rest);
	};
}
