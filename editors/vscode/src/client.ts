// The language client's lifecycle: one `planls serve` per window (it gets
// every workspace folder), started, stopped and restarted through a queue so
// overlapping restarts cannot interleave.

import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import {
	DidChangeConfigurationNotification,
	DynamicFeature,
	ExecuteCommandRequest,
	LanguageClient,
	LanguageClientOptions,
	RevealOutputChannelOn,
	ServerOptions,
	State,
	StaticFeature,
} from 'vscode-languageclient/node';
import { registersServerCommands } from './commandFilter';
import { StateChangedParams, stateChangedNotification } from './protocol';
import { installCommand, resolveServer } from './serverPath';
import { serverSettings } from './settings';
import type { ServerState } from './treeModel';

/**
 * PlanLanguageClient is a LanguageClient that leaves the planls.* command
 * ids to the extension (the stock client registers them
 * globally and a restart then throws "command already exists").
 */
export class PlanLanguageClient extends LanguageClient {
	// Called from the base constructor, so it must not touch own fields.
	public override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
		if (registersServerCommands(feature)) {
			return;
		}
		super.registerFeature(feature);
	}
}

function isExecutable(p: string): boolean {
	try {
		if (!fs.statSync(p).isFile()) {
			return false;
		}
		if (process.platform !== 'win32') {
			fs.accessSync(p, fs.constants.X_OK);
		}
		return true;
	} catch {
		return false;
	}
}

function currentSettings() {
	const cfg = vscode.workspace.getConfiguration('planls');
	return serverSettings((k) => cfg.get(k));
}

/** ServerManager owns the single language client of the window. */
export class ServerManager implements vscode.Disposable {
	private client: LanguageClient | undefined;
	private queue: Promise<void> = Promise.resolve();
	private stopping = false;
	private current: ServerState = 'starting';
	private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
	private readonly changedEmitter = new vscode.EventEmitter<StateChangedParams | undefined>();

	/** Fires when the server starts, fails or stops. */
	readonly onDidChangeServerState = this.stateEmitter.event;
	/** Fires on every `planls/stateChanged` notification. */
	readonly onDidChangePlanState = this.changedEmitter.event;

	/** The planls executable the server was last started from ("" before). */
	command = '';

	constructor(private readonly output: vscode.OutputChannel) {}

	/** The server state as of the last transition. */
	get state(): ServerState {
		return this.current;
	}

	private setState(s: ServerState): void {
		if (this.current !== s) {
			this.current = s;
			void vscode.commands.executeCommand('setContext', 'planls.running', s === 'running');
			this.stateEmitter.fire(s);
		}
	}

	private enqueue(job: () => Promise<void>): Promise<void> {
		const next = this.queue.then(job, job);
		// A failed job must not wedge later restarts.
		this.queue = next.catch((err) => this.output.appendLine(`[planls] ${String(err)}`));
		return this.queue;
	}

	/** start launches the server unless one runs already. */
	start(): Promise<void> {
		return this.enqueue(() => (this.client ? Promise.resolve() : this.doStart()));
	}

	/** restart stops the running server (if any) and starts a fresh one; safe to call repeatedly. */
	restart(): Promise<void> {
		return this.enqueue(async () => {
			await this.doStop();
			await this.doStart();
		});
	}

	/** stop shuts the server down (shutdown + exit), waiting at most a few seconds. */
	stop(): Promise<void> {
		return this.enqueue(() => this.doStop());
	}

	private async doStop(): Promise<void> {
		const client = this.client;
		this.client = undefined;
		if (!client) {
			return;
		}
		this.stopping = true;
		try {
			await client.dispose(3000);
		} catch (err) {
			this.output.appendLine(`[planls] stopping the server: ${String(err)}`);
		} finally {
			this.stopping = false;
		}
	}

	private async doStart(): Promise<void> {
		const folders = vscode.workspace.workspaceFolders ?? [];
		if (folders.length === 0) {
			this.output.appendLine('[planls] no workspace folder (yet); the server starts when one is added');
			this.setState('noFolder');
			return;
		}
		this.setState('starting');
		const found = resolveServer({
			setting: vscode.workspace.getConfiguration('planls').get<string>('path') ?? '',
			pathVar: process.env.PATH ?? process.env.Path,
			gopath: process.env.GOPATH,
			gobin: process.env.GOBIN,
			home: os.homedir(),
			platform: process.platform,
			isExecutable,
		});
		if (!found.ok) {
			this.output.appendLine(`[planls] ${found.message}`);
			this.setState('error');
			void this.reportMissingServer(found.message);
			return;
		}
		this.command = found.command;
		this.output.appendLine(`[planls] starting ${found.command} serve`);
		const serverOptions: ServerOptions = {
			command: found.command,
			args: ['serve'],
			options: { cwd: folders[0].uri.fsPath },
		};
		const clientOptions: LanguageClientOptions = {
			documentSelector: [{ scheme: 'file', language: 'markdown' }],
			diagnosticCollectionName: 'planls',
			outputChannel: this.output,
			revealOutputChannelOn: RevealOutputChannelOn.Never,
			initializationOptions: currentSettings(),
			synchronize: { configurationSection: 'planls' },
			middleware: {
				workspace: {
					// Send the validated settings in the shape of docs/PROTOCOL.md
					// instead of the raw section (which also holds path and trace).
					didChangeConfiguration: async () => {
						const planls = currentSettings();
						this.output.appendLine(`[planls] settings: ${JSON.stringify(planls)}`);
						await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { planls } });
					},
				},
			},
			initializationFailedHandler: (err) => {
				this.output.appendLine(`[planls] initialize failed: ${String(err)}`);
				return false;
			},
		};
		const client: LanguageClient = new PlanLanguageClient('planls', 'planls', serverOptions, clientOptions);
		this.client = client;
		client.onDidChangeState((e) => {
			if (this.client !== client || this.stopping) {
				return;
			}
			if (e.newState === State.Running) {
				this.setState('running');
			} else if (e.newState === State.Stopped) {
				this.setState('error');
			}
		});
		client.onNotification(stateChangedNotification, (p: StateChangedParams) => this.changedEmitter.fire(p));
		try {
			await client.start();
			if (this.client === client) {
				this.setState('running');
			}
		} catch (err) {
			this.output.appendLine(`[planls] the server did not start: ${String(err)}`);
			if (this.client === client) {
				this.client = undefined;
				this.setState('error');
			}
			try {
				await client.dispose(1000);
			} catch {
				// Already dead; nothing else to release.
			}
		}
	}

	private async reportMissingServer(message: string): Promise<void> {
		const settings = 'Open Settings';
		const copy = 'Copy Install Command';
		const choice = await vscode.window.showErrorMessage(message, copy, settings);
		if (choice === copy) {
			await vscode.env.clipboard.writeText(installCommand);
		} else if (choice === settings) {
			await vscode.commands.executeCommand('workbench.action.openSettings', 'planls.path');
		}
	}

	/** request sends a custom request; it rejects when the server is not running. */
	async request(method: string, params: unknown): Promise<unknown> {
		const client = this.client;
		if (!client || !client.isRunning()) {
			throw new Error('the planls server is not running');
		}
		return client.sendRequest(method, params);
	}

	/** executeCommand runs a server command with one argument object (docs/PROTOCOL.md). */
	async executeCommand(command: string, arg: Record<string, unknown>): Promise<unknown> {
		const client = this.client;
		if (!client || !client.isRunning()) {
			throw new Error('the planls server is not running');
		}
		return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [arg] });
	}

	dispose(): void {
		void this.stop();
		this.stateEmitter.dispose();
		this.changedEmitter.dispose();
	}
}
