import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { cli, type Ran } from '../tools/cli.ts';
import { CLI_BINS, documentedRuns, fencedBlocks, normalizeOutput, shellWords, type DocumentedRun } from './cli-blocks.ts';

// Every `console` block of the docs that runs one of our tools (`$ npx validate-pack ...`) is run
// again, as `node bin/<tool>.js` from the project root, and what it prints on standard output must be
// what the docs show, so the documented output cannot go stale.

const CONTENT = fileURLToPath(new URL('../../docs-site/content/', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
}

// Blocks that run in a copy of the project (`console new-year-copy`) are run by the test that makes it.
const runs: DocumentedRun[] = markdownFiles(CONTENT)
  .flatMap((file) => documentedRuns(relative(PROJECT_ROOT, file), readFileSync(file, 'utf8')))
  .filter((run) => run.place === '');

// Started together when the suite starts (not when the file loads, so as not to compete with other
// suites), a few processes at a time; each test waits for its own.
const results = new Map<DocumentedRun, Promise<Ran>>();
test.before(() => {
  for (const run of runs) results.set(run, cli(run.bin, run.args));
});

test('the helper reads console blocks and shell words as the docs write them', () => {
  const page = [
    '```console',
    "$ npx explain au.pay.take-home --facts '{\"a\": 1}' \\",
    '    --json',
    'out',
    '```',
    '',
    '````markdown',
    '```console',
    '$ npx pack-diff a b',
    '```',
    '````',
    '',
    '1. Step',
    '',
    '   ```console',
    '   $ npx validate-pack "two words" x\\ y',
    '     indented output',
    '   ```',
    '',
    '```bash',
    '$ npx validate-pack not-console',
    '```',
  ].join('\n');
  assert.equal(
    fencedBlocks(page).map((block) => block.info),
    ['console', 'markdown', 'console', 'bash'],
  );
  assert.equal(
    documentedRuns('page.md', page).map(({ line, bin, args, output, place }) => ({ line, bin, args, output, place })),
    [
      { line: 1, bin: 'explain', args: ['au.pay.take-home', '--facts', '{"a": 1}', '--json'], output: 'out', place: '' },
      { line: 15, bin: 'validate-pack', args: ['two words', 'x y'], output: '  indented output', place: '' },
    ],
  );
  assert.is(documentedRuns('page.md', '```console new-year-copy\n$ npx validate-pack x\nout\n```\n')[0]!.place, 'new-year-copy');
  assert.throws(() => documentedRuns('page.md', '```console new-yaer-copy\n$ npx validate-pack x\n```\n'), /page\.md:1: `console new-yaer-copy` names no place/);
  assert.equal(shellWords(`a'b c'"d \\" e" f\\\n g`), ['ab cd " e', 'f', 'g']);
  assert.throws(() => shellWords('npx validate-pack rulepacks | head'), /needs a shell/);
  assert.throws(() => shellWords('npx explain x --facts "$FACTS"'), /expand/);
  assert.throws(() => documentedRuns('page.md', '```console\n$ npx validate-packs\n```\n'), /page\.md:1: `npx validate-packs` is not one of our tools/);
  assert.is(normalizeOutput('a  \nb\t\n\n\n'), 'a\nb');
});

test('the docs show the output of each tool, in console blocks the test can run', () => {
  assert.ok(runs.length >= 10, `found ${runs.length} console blocks`);
  for (const bin of CLI_BINS) assert.ok(runs.some((run) => run.bin === bin), `a console block runs ${bin}`);
  for (const run of runs) assert.ok(normalizeOutput(run.output) !== '', `${run.file}:${run.line}: the block shows no output`);
});

for (const run of runs) {
  test(`documented output is current: ${run.file}:${run.line} $ ${run.command.replace(/\s*\\\n\s*/g, ' ')}`, async () => {
    const { status, stdout, stderr } = await results.get(run)!;
    assert.fixture(normalizeOutput(stdout), normalizeOutput(run.output), `${run.file}:${run.line}: \`${run.command}\` printed something else (exit ${status})${stderr ? `; on stderr:\n${stderr}` : ''}`);
  });
}

test.run();
