import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { currentCommit } from '../../src/git';

function git(dir: string, ...args: string[]): string {
	return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

test('currentCommit returns the short HEAD hash, or undefined outside a repo or before the first commit', async (t) => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planls-git-'));
	t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
	const plain = path.join(dir, 'plain');
	const repo = path.join(dir, 'repo');
	fs.mkdirSync(plain);
	fs.mkdirSync(repo);
	assert.equal(await currentCommit(plain), undefined);
	git(repo, 'init', '-q');
	assert.equal(await currentCommit(repo), undefined);
	fs.writeFileSync(path.join(repo, 'PLAN.md'), '# P\n- a\n');
	git(repo, 'add', 'PLAN.md');
	git(repo, 'commit', '-q', '-m', 'plan');
	assert.equal(await currentCommit(repo), git(repo, 'rev-parse', '--short', 'HEAD'));
	assert.equal(await currentCommit(path.join(dir, 'does-not-exist')), undefined);
});
