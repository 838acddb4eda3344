import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI_BINS } from '../docs-site/cli-blocks.ts';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// `npx <tool>` is fast only when npm has linked the tool into node_modules/.bin: for a bin of the
// project's own package.json, npx first installs the project into its cache (a second each time).
// So the tools are the bins of a workspace, packages/tools, which run the project's bin/ scripts.

test('npm install links every tool into node_modules/.bin, where npx finds it', () => {
  const workspace = JSON.parse(readFileSync(join(PROJECT_ROOT, 'packages/tools/package.json'), 'utf8')) as { bin: Record<string, string> };
  assert.equal(Object.keys(workspace.bin).sort(), [...CLI_BINS].sort());
  for (const bin of CLI_BINS) {
    assert.is(realpathSync(join(PROJECT_ROOT, 'node_modules/.bin', bin)), join(PROJECT_ROOT, 'packages/tools', workspace.bin[bin]!));
    const linked = execFileSync(join(PROJECT_ROOT, 'node_modules/.bin', bin), ['--help'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    const direct = execFileSync(process.execPath, [join(PROJECT_ROOT, 'bin', `${bin}.js`), '--help'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    assert.is(linked, direct, bin);
    assert.ok(direct.length > 100, `${bin} --help says something`);
  }
  const own = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { bin?: unknown };
  assert.is(own.bin, undefined, 'the root package names no bins, or npx would install the project into its cache');
});

test.run();
