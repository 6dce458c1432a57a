// A project with a history, made with the real planls binary and git: two
// approvals, completions with each kind of evidence (a commit, a file at a
// line, a test, a command with a URL, weak evidence), a deferral, reopens of a
// completed and of a deferred item,
// drift after the second approval, and other people's text that holds a
// <script>, an onerror attribute and javascript: URLs. What the report must
// show is returned beside it, derived from the same steps.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const HOSTILE = {
  evidence: `internal/ratelimit/bucket.go:12 wires it <script>window.__pwned=1;alert('ev')</script>`,
  reason: `needs a load rig <img src=x onerror="window.__pwned=2;alert('r')"> [more](javascript:alert('why'))`,
  subject: "`<script>window.__pwned=3</script>` Document the limits <img src=x onerror=alert(2)> [click](javascript:alert('s'))",
};

const PLAN1 = `# Rate limiting

## Build
- Add a token bucket keyed by API key
- Wire the limiter into the ingest handlers
- Unit tests for the bucket
- Load test at 10x the rate

## Verify
- go test ./... passes
- Review with the API team
`;


const BUCKET = 'package ratelimit\n\n' + Array.from({ length: 40 }, (_, i) => `// line ${i + 3}\n`).join('');
const BUCKET_TEST = 'package ratelimit\n\nimport "testing"\n\n// TestBucketRefill checks the refill.\nfunc TestBucketRefill(t *testing.T) {}\n';

/**
 * makeProject builds the project in a new temp dir. remote is the git
 * remote URL (or null for none). Returns { root, head, commit, expect }.
 */
export function makeProject(remote, { hostile = true } = {}) {
  const text = hostile ? HOSTILE : {
    evidence: 'internal/ratelimit/bucket.go:12 wires it into the handlers',
    reason: 'needs a load rig; tracked in #42',
    subject: 'Document the limits in `docs/limits.md`',
  };
  const PLAN2 = PLAN1.replace('- Review with the API team\n', `- Review with the API team\n- ${text.subject}\n`);
  const bin = process.env.PLANLS_BIN;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'planls-report-'));
  let tick = 0;
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.com',
    GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', BROWSER: '',
  };
  const git = (...args) => {
    tick++;
    const date = `2026-11-01T09:00:${String(tick).padStart(2, '0')}Z`;
    return execFileSync('git', args, { cwd: root, env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } }).toString().trim();
  };
  const planls = (...args) => execFileSync(bin, args, { cwd: root, env }).toString();
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };

  git('init', '-q', '-b', 'main');
  if (remote) git('remote', 'add', 'origin', remote);
  write('PLAN.md', PLAN1);
  write('internal/ratelimit/bucket.go', BUCKET);
  write('internal/ratelimit/bucket_test.go', BUCKET_TEST);
  git('add', '-A');
  git('commit', '-q', '-m', 'Add the token bucket');
  const commit = git('rev-parse', 'HEAD');

  planls('approve');
  planls('todo', 'start', '1');
  planls('todo', 'complete', '1', '--evidence', `${commit.slice(0, 10)}: the bucket`);
  planls('todo', 'complete', '2', '--evidence', text.evidence);
  planls('todo', 'complete', '3', '--evidence', 'TestBucket passes');
  // A completed item reopened by a person, then completed with the right proof.
  planls('todo', 'reopen', '3', '--reason', 'TestBucket does not exist: wrong test');
  planls('todo', 'complete', '3', '--evidence', 'TestBucketRefill passes');
  planls('todo', 'complete', '5', '--evidence', '`go test ./...` passes, CI https://ci.example.com/run/7');
  planls('todo', 'defer', '4', '--reason', 'no rig yet');
  planls('todo', 'update', '4', '--status', 'pending'); // reopened
  planls('todo', 'defer', '4', '--reason', text.reason);
  // Work on #6 begun, then set back to pending: a start and a stop.
  planls('todo', 'start', '6');
  planls('todo', 'update', '6', '--status', 'pending');
  write('PLAN.md', PLAN2);
  planls('approve');
  planls('todo', 'complete', '7', '--evidence', 'done');
  // Drift: a bullet the approved plan does not hold.
  write('PLAN.md', PLAN2.replace('- Load test at 10x the rate\n', '- Load test at 10x the rate\n- Add a Grafana dashboard\n'));
  git('add', '-A');
  git('commit', '-q', '-m', 'Plan and state');
  const head = git('rev-parse', 'HEAD');

  return {
    root, head, commit, planls,
    expect: {
      title: 'Rate limiting',
      summary: '5 of 7 done (71%), 1 deferred, 1 open',
      // [id, status label, subject as people read it]
      items: [
        [1, 'completed', 'Add a token bucket keyed by API key'],
        [2, 'completed', 'Wire the limiter into the ingest handlers'],
        [3, 'completed', 'Unit tests for the bucket'],
        [4, 'deferred', 'Load test at 10x the rate'],
        [5, 'completed', 'go test ./... passes'],
        [6, 'pending', 'Review with the API team'],
        [7, 'completed', "<script>window.__pwned=3</script> Document the limits  click"],
      ],
      verdicts: { 1: 'verified', 2: 'verified', 3: 'verified', 5: 'unverifiable', 7: 'unverifiable' },
      // [scope, done, deferred] after each change that moved a count, and
      // at each approval.
      points: [[6, 0, 0], [6, 1, 0], [6, 2, 0], [6, 3, 0], [6, 2, 0], [6, 3, 0], [6, 4, 0], [6, 4, 1], [6, 4, 0], [6, 4, 1], [7, 4, 1], [7, 5, 1]],
      marks: [6, 7],
      // timeline kinds, oldest first
      timeline: ['approved', 'started', 'completed', 'completed', 'completed', 'reopened', 'completed', 'completed', 'deferred', 'reopened', 'deferred', 'started', 'stopped', 'reapproved', 'completed'],
      reopen: 'TestBucket does not exist: wrong test (the evidence was: TestBucket passes)',
      drift: 'Add a Grafana dashboard',
    },
  };
}
