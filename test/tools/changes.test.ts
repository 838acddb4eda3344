import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Diagnostic } from '../../engine/index.ts';
import { describeChanges, describeState, stateOf } from '../../tools/validate-pack/changes.ts';
import type { ExampleOutcome, PackOutcome } from '../../tools/validate-pack/check.ts';

// What --watch prints between two checks, worked out in-process from hand-made outcomes.

const diagnostic = (line: number, message = '`grossPy` is not a required fact'): Diagnostic => ({ kind: 'expression', message, location: { file: 'p/rules/levy.yaml', line, column: 5 } });
const example = (passed: boolean, actual = 100): ExampleOutcome => ({
  name: 'one',
  calculator: 'calc',
  passed,
  file: 'p/examples/worked.yaml',
  line: 2,
  column: 5,
  mismatches: passed ? [] : [{ fact: 'levy', expected: 100, actual }],
});
const pack = (diagnostics: Diagnostic[], examples: ExampleOutcome[] | null): PackOutcome => ({
  id: 'p',
  version: '1.0.0',
  dir: 'p',
  counts: { files: 1, sources: 0, facts: 0, parameters: 0, rules: 0, calculators: 0, examples: 1, examplesPassed: 0 },
  diagnostics,
  notices: [],
  examplesRun: examples !== null,
  examples: examples ?? [],
  unreadable: [],
  moneyFacts: new Set(['levy']),
});

test('a diagnostic that only moved to another line is not a change; a new and a fixed one are', () => {
  const before = stateOf([pack([diagnostic(3)], null)]);
  assert.equal(describeChanges(before, stateOf([pack([diagnostic(9)], null)], before)), []);
  assert.equal(describeChanges(before, stateOf([pack([diagnostic(3), diagnostic(4, 'other')], null)], before)), ['+ new: p/rules/levy.yaml:4:5 expression other']);
  assert.equal(describeChanges(before, stateOf([pack([], [example(true)])], before)), ['- fixed: p/rules/levy.yaml:3:5 expression `grossPy` is not a required fact']);
});

test('examples: starts failing, fails differently, passes again; not run while diagnostics stop them, and compared with the last real run after', () => {
  const passing = stateOf([pack([], [example(true)])]);
  const failing = stateOf([pack([], [example(false)])], passing);
  assert.equal(describeChanges(passing, failing), ['+ now fails: p/examples/worked.yaml:2:5 example `one` (calc) does not give the expected figures', '    levy: expected 100 ($1.00), actual 100 ($1.00)']);
  const differently = stateOf([pack([], [example(false, 99)])], failing);
  assert.equal(describeChanges(failing, differently)[0], '~ fails differently: p/examples/worked.yaml:2:5 example `one` (calc) does not give the expected figures');
  const blocked = stateOf([pack([diagnostic(3)], null)], failing);
  assert.equal(describeChanges(failing, blocked), ['+ new: p/rules/levy.yaml:3:5 expression `grossPy` is not a required fact', '  examples of p/1.0.0 not run until its diagnostics are fixed']);
  assert.is(describeState(blocked), 'now: 1 diagnostic, 0 failing examples (examples of 1 pack not run)');
  const fixed = stateOf([pack([], [example(false)])], blocked);
  assert.equal(describeChanges(blocked, fixed), ['- fixed: p/rules/levy.yaml:3:5 expression `grossPy` is not a required fact'], 'still failing as in the last real run: not reported again');
  assert.equal(describeChanges(fixed, stateOf([pack([], [example(true)])], fixed)), ['- now passes: p/examples/worked.yaml:2:5 example `one` (calc)']);
});

test('a carried-value notice that appears, and one that a confirmation resolves, are reported', () => {
  const notice = { kind: 'carried-value' as const, message: 'parameter `levy-rate`: carried', location: { file: 'p/parameters/levy-rate.yaml', line: 9, column: 5 } };
  const quiet = stateOf([pack([], [example(true)])]);
  const noticed = stateOf([{ ...pack([], [example(true)]), notices: [notice] }], quiet);
  assert.equal(describeChanges(quiet, noticed), ['+ notice: p/parameters/levy-rate.yaml:9:5 carried-value parameter `levy-rate`: carried']);
  assert.is(describeState(noticed), 'now: 0 diagnostics, 0 failing examples, 1 notice');
  assert.is(describeState(quiet), 'now: 0 diagnostics, 0 failing examples');
  assert.equal(describeChanges(noticed, stateOf([pack([], [example(true)])], noticed)), ['- no longer noticed: p/parameters/levy-rate.yaml:9:5 carried-value parameter `levy-rate`: carried']);
});

test('packs that appear or go are reported', () => {
  const none = stateOf([]);
  const one = stateOf([pack([], [example(true)])]);
  assert.equal(describeChanges(none, one), ['+ pack p/1.0.0 (p) appeared']);
  assert.equal(describeChanges(one, none), ['- pack p/1.0.0 (p) is gone']);
});

test.run();
