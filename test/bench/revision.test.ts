// Lane: services (npm run test:fast leaves this file out).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { testOr } from '../helpers/skip.ts';
import { checkOutRevision } from '../../bench/lib/revision.ts';
import { PROJECT_ROOT } from '../../bench/lib/packs.ts';

// `--baseline=<revision>` measures another revision's service beside today's: it must start that
// revision the way its own `npm start` did, and say so when it cannot.

const work = mkdtempSync(join(tmpdir(), 'tax-rules-revision-'));
// The checkouts' folders go with it; git forgets them as the process exits (checkOutRevision).
test.after(() => rmSync(work, { recursive: true, force: true }));
const git = (...args: string[]) => spawnSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' });

test('a revision that is not a commit is refused by name', () => {
  assert.throws(() => checkOutRevision('no-such-revision-anywhere', work), /no-such-revision-anywhere is not a commit/);
});

test('a revision with a build is built and runs its dist/server.js with its start script flags', () => {
  const commit = git('rev-parse', '--short', 'HEAD').stdout.trim();
  const server = checkOutRevision('HEAD', work);
  assert.is(server.label, `HEAD (${commit})`);
  assert.is(server.cwd, join(work, `baseline-${commit}`));
  assert.ok(existsSync(join(server.cwd, 'dist/server.js')), 'built');
  assert.is(realpathSync(join(server.cwd, 'node_modules')), realpathSync(join(PROJECT_ROOT, 'node_modules')));
  assert.is(server.nodeArgs.at(-1), join(server.cwd, 'dist/server.js'));
  assert.ok(server.nodeArgs.includes('--heap-growing-percent=20'), server.nodeArgs.join(' '));
  assert.is(server.env.MALLOC_MMAP_THRESHOLD_ !== undefined, true);
});

const added = git('log', '--diff-filter=A', '--format=%H', '--', 'scripts/build.js').stdout.trim().split('\n').at(-1);
const beforeBuild = added && git('rev-parse', '--verify', '--quiet', `${added}^`).stdout.trim();
const olderThanBuild = testOr(test, beforeBuild ? undefined : 'a revision from before the build: this clone has no commit from before scripts/build.js (a shallow clone)');

olderThanBuild('a revision from before the build runs server/main.ts through tsx, as its npm start did', () => {
  const server = checkOutRevision(beforeBuild!, work);
  assert.equal(server.nodeArgs, ['--import', 'tsx', join(server.cwd, 'server/main.ts')]);
  assert.ok(existsSync(join(server.cwd, 'server/main.ts')));
});

test.run();
