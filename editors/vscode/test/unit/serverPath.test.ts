import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { badSettingMessage, installCommand, notFoundMessage, publishedInstallCommand, resolveServer, SearchEnv } from '../../src/serverPath';

function env(over: Partial<SearchEnv>, executables: string[]): SearchEnv {
	return {
		setting: '',
		pathVar: '/usr/bin:/bin',
		gopath: undefined,
		gobin: undefined,
		home: '/home/me',
		platform: 'linux',
		isExecutable: (p) => executables.includes(p),
		...over,
	};
}

// The module is not published yet: the command that works is the clone's,
// and @latest is named only as what works once it is.
test('the not-found messages name the install command exactly', () => {
	assert.equal(installCommand, 'go install ./cmd/planls');
	assert.equal(publishedInstallCommand, 'go install github.com/planls/planls/cmd/planls@latest');
	assert.equal(
		notFoundMessage(),
		'planls was not found on PATH. To install it, run `go install ./cmd/planls` in a clone of the planls repository (`go install github.com/planls/planls/cmd/planls@latest` once the module is published) and put $(go env GOPATH)/bin on PATH, or set "planls.path".',
	);
	assert.equal(
		badSettingMessage('/opt/planls'),
		'"planls.path" is set to /opt/planls, which is not an executable file. Fix the setting, or to install planls, run `go install ./cmd/planls` in a clone of the planls repository (`go install github.com/planls/planls/cmd/planls@latest` once the module is published).',
	);
});

test('resolveServer: setting, then PATH, then Go install dirs', () => {
	const rows: [string, Partial<SearchEnv>, string[], ReturnType<typeof resolveServer>][] = [
		['setting wins over PATH', { setting: '/opt/planls' }, ['/opt/planls', '/usr/bin/planls'], { ok: true, command: '/opt/planls' }],
		['setting trimmed', { setting: '  /opt/planls ' }, ['/opt/planls'], { ok: true, command: '/opt/planls' }],
		['setting with ~', { setting: '~/bin/planls' }, ['/home/me/bin/planls'], { ok: true, command: '/home/me/bin/planls' }],
		['bad setting is an error, no fallback', { setting: '/opt/nope' }, ['/usr/bin/planls'], { ok: false, message: badSettingMessage('/opt/nope') }],
		['first PATH hit', {}, ['/bin/planls', '/usr/bin/planls'], { ok: true, command: '/usr/bin/planls' }],
		['empty PATH entries skipped', { pathVar: '::/bin' }, ['/bin/planls'], { ok: true, command: '/bin/planls' }],
		['GOBIN', { gobin: '/go/custom' }, ['/go/custom/planls'], { ok: true, command: '/go/custom/planls' }],
		['GOPATH list', { gopath: '/a:/b' }, ['/b/bin/planls'], { ok: true, command: '/b/bin/planls' }],
		['~/go/bin', {}, ['/home/me/go/bin/planls'], { ok: true, command: '/home/me/go/bin/planls' }],
		['PATH unset', { pathVar: undefined }, [], { ok: false, message: notFoundMessage() }],
		['nowhere', {}, ['/usr/bin/other'], { ok: false, message: notFoundMessage() }],
		[
			'windows uses ; and .exe',
			{ platform: 'win32', pathVar: 'C:\\tools;C:\\go\\bin', home: 'C:\\Users\\me' },
			['C:\\go\\bin\\planls.exe'],
			{ ok: true, command: 'C:\\go\\bin\\planls.exe' },
		],
	];
	for (const [name, over, exes, want] of rows) {
		assert.deepEqual(resolveServer(env(over, exes)), want, name);
	}
});
