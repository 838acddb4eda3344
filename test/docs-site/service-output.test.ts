// Lane: services (npm run test:fast leaves this file out).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { buildOnce, runToExit } from '../helpers/service-process.ts';
import { documentedStarts, missingLines, type DocumentedStart } from './cli-blocks.ts';

// Every `console` block of the docs that starts the service (`$ npm start`, with the settings it
// shows) is run again: the service is started as `npm start` starts it, with those settings, on a
// free port, and stopped once it listens (or seen to exit on its own). Every line the docs show
// must be among what it printed, in that order, so a quoted start-up line or configuration message
// cannot go stale.

const CONTENT = fileURLToPath(new URL('../../docs-site/content/', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
}

const starts: DocumentedStart[] = markdownFiles(CONTENT).flatMap((file) => documentedStarts(relative(PROJECT_ROOT, file), readFileSync(file, 'utf8')));

// Started together when the suite starts, each test waiting for its own.
const results = new Map<DocumentedStart, Promise<{ code: number | null; output: string }>>();
test.before(() => {
  if (starts.length > 0) buildOnce();
  // A port the docs name is not taken here: the service listens on a free one, and its `url` is
  // compared as if it were the port named.
  for (const start of starts) results.set(start, runToExit(/^\d+$/.test(start.env['PORT'] ?? '') ? { ...start.env, PORT: '0' } : start.env));
});

test('the helper reads start blocks and matches printed lines as the docs mean them', () => {
  const page = ['```console', '$ PORT=abc npm start', '{"level":"fatal","time":"t","pid":1,"event":"x"}', '```', '', '```console', '$ npm start', '```', '', '```console', '$ npm test', '```'].join('\n');
  assert.equal(
    documentedStarts('page.md', page).map(({ line, env, output }) => ({ line, env, output })),
    [
      { line: 1, env: { PORT: 'abc' }, output: '{"level":"fatal","time":"t","pid":1,"event":"x"}' },
      { line: 6, env: {}, output: '' },
    ],
  );
  assert.throws(() => documentedStarts('page.md', '```console\n$ cd x npm start\n```\n'), /page\.md:1: `cd` .* is not a setting/);

  const printed = ['{"level":"info","time":"a","pid":2,"event":"docs-loaded"}', '{"level":"info","time":"b","pid":2,"event":"listening","url":"http://127.0.0.1:39211","n":3}'].join('\n');
  assert.equal(missingLines('{"level":"info","time":"z","pid":9,"event":"listening","url":"http://127.0.0.1:4000","n":3}', printed, '4000'), []);
  assert.equal(missingLines('{"level":"info","time":"z","pid":9,"event":"listening","url":"http://127.0.0.1:4000","n":4}', printed, '4000').length, 1, 'a field that differs');
  assert.equal(missingLines('{"level":"info","time":"z","pid":9,"url":"http://127.0.0.1:4000","event":"listening","n":3}', printed, '4000').length, 1, 'fields in another order');
  assert.equal(missingLines('{"level":"info","time":"z","pid":9,"event":"listening","url":"http://127.0.0.1:4000","n":3}', printed, '4100').length, 1, 'another port than the one named');
  assert.equal(missingLines(['{"event":"listening"}', '{"event":"docs-loaded"}'].join('\n'), printed, '4000').length, 2, 'lines in another order');
});

test('the docs quote the start-up line and configuration messages in blocks the test can run', () => {
  assert.ok(starts.length >= 3, `found ${starts.length} npm start blocks`);
  for (const start of starts) assert.ok(start.output.trim() !== '', `${start.file}:${start.line}: the block shows no output`);
  assert.ok(starts.some((start) => Object.keys(start.env).length === 0), 'a plain start');
  assert.ok(starts.some((start) => Object.keys(start.env).length > 0), 'a start with settings');
});

for (const start of starts) {
  test(`documented start-up output is current: ${start.file}:${start.line} $ ${start.command}`, async () => {
    const { code, output } = await results.get(start)!;
    const missing = missingLines(start.output, output, start.env['PORT'] ?? '4000');
    assert.equal(missing, [], `${start.file}:${start.line}: \`${start.command}\` did not print these lines (exit ${code}); it printed:\n${output}`);
  });
}

test.run();
