import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseArgs as explainArgs } from '../../tools/explain/args.ts';
import { readFacts } from '../../tools/explain/facts-input.ts';
import { parseArgs as diffArgs } from '../../tools/pack-diff/args.ts';
import { parseArgs as validateArgs } from '../../tools/validate-pack/args.ts';

// Argument handling in-process: every combination here would otherwise cost a node process each.
// The CLI tests spawn the tools for one case of each exit code.

const problem = (parsed: { ok: boolean; problem?: string }) => (parsed.ok ? undefined : parsed.problem);

test('validate-pack: one mode at a time, and options only with the mode they belong to', () => {
  const ok = validateArgs(['rulepacks', '--graph', '--format=dot']);
  assert.ok(ok.ok && ok.options.mode === 'graph' && ok.options.format === 'dot' && ok.options.paths[0] === 'rulepacks');
  const coverage = validateArgs(['--coverage', '--json', '--require-full']);
  assert.ok(coverage.ok && coverage.options.mode === 'coverage' && coverage.options.json && coverage.options.requireFull);
  assert.is(problem(validateArgs(['--graph', '--watch'])), 'choose one of `--graph`, `--watch`');
  assert.is(problem(validateArgs(['--format', 'dot'])), '`--format` only applies to `--graph`');
  assert.is(problem(validateArgs(['--graph', '--format', 'svg'])), 'unknown graph format `svg`; use mermaid or dot');
  assert.is(problem(validateArgs(['--graph', '--format'])), '`--format` needs a value: mermaid or dot');
  assert.is(problem(validateArgs(['--require-full'])), '`--require-full` only applies to `--coverage`');
  assert.is(problem(validateArgs(['--watch', '--json'])), '`--json` does not apply to `--watch`');
  assert.is(problem(validateArgs(['--graph', '--json'])), '`--json` does not apply to `--graph`');
  assert.ok(validateArgs(['--graph', '--coverage', '--help']).ok, '--help wins over conflicting modes');
});

test('explain: one calculator, --facts required, valued options in both spellings', () => {
  const parsed = explainArgs(['au.pay.take-home', '--facts=f.json', '--context', 'AU/2025-26', '--packs', 'p', '--json']);
  assert.equal(parsed, { ok: true, options: { calculatorId: 'au.pay.take-home', facts: 'f.json', context: 'AU/2025-26', packs: ['p'], json: true, help: false } });
  const compared = explainArgs(['au.pay.take-home', '--facts', 'f.json', '--context=AU/2031-32', '--against', 'AU/2030-31', '--packs', 'a', '--packs=b']);
  assert.equal(compared, { ok: true, options: { calculatorId: 'au.pay.take-home', facts: 'f.json', context: 'AU/2031-32', against: 'AU/2030-31', packs: ['a', 'b'], json: false, help: false } });
  assert.equal(explainArgs(['au.pay.take-home', '--facts', 'f.json', '--against']), { ok: false, problem: '`--against` needs a value' });
  assert.match(problem(explainArgs(['--facts', '{}']))!, /name the calculator/);
  assert.match(problem(explainArgs(['a', 'b', '--facts', '{}']))!, /one calculator at a time/);
  assert.match(problem(explainArgs(['a']))!, /`--facts` is required/);
  assert.is(problem(explainArgs(['a', '--facts'])), '`--facts` needs a value');
  assert.is(problem(explainArgs(['a', '--fact', 'x'])), 'unknown option `--fact`');
});

test('explain: --facts is inline JSON, a file, or not JSON at all', () => {
  assert.equal(readFacts(' {"a": 1}'), { ok: true, facts: { a: 1 } });
  assert.equal(readFacts('test/fixtures/conformance/journeys.json').ok, true);
  assert.match(problem(readFacts('{"a": '))!, /^the --facts value is not valid JSON/);
  assert.match(problem(readFacts('no/such/facts.json'))!, /^cannot read the facts file `no\/such\/facts.json`/);
  assert.match(problem(readFacts('README.md'))!, /^`README.md` is not valid JSON/);
});

test('pack-diff: two folders, or one folder with one or two revisions', () => {
  assert.equal(diffArgs(['a', 'b']), { ok: true, help: false, comparison: { kind: 'folders', old: 'a', new: 'b' } });
  assert.equal(diffArgs(['p', '--rev', 'HEAD~1', '--rev=HEAD']), { ok: true, help: false, comparison: { kind: 'revisions', path: 'p', old: 'HEAD~1', new: 'HEAD' } });
  assert.equal(diffArgs(['p', '--rev', 'main']), { ok: true, help: false, comparison: { kind: 'revisions', path: 'p', old: 'main', new: null } });
  assert.match(problem(diffArgs(['a']))!, /give two pack folders/);
  assert.match(problem(diffArgs(['a', 'b', '--rev', 'x']))!, /exactly one pack folder/);
  assert.match(problem(diffArgs(['a', '--rev', 'x', '--rev', 'y', '--rev', 'z']))!, /at most two/);
  assert.match(problem(diffArgs(['a', '--rev']))!, /needs a git revision/);
  assert.is(problem(diffArgs(['a', 'b', '--stat'])), 'unknown option `--stat`');
});

test.run();
