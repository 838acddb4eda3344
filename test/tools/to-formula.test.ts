import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPacks, runExamples } from '../../engine/index.ts';
import { convertPacks } from '../../tools/to-formula/convert.ts';
import { FIXTURE_PACKS } from '../helpers/packs.ts';

// The valid fixture pack is written in json-logic: converting it must change how its rules are
// written and nothing they compute.

const PACK = 'fixture-pay/1.0.0';

function copyOfValidPack(): string {
  const dir = mkdtempSync(join(tmpdir(), 'to-formula-'));
  cpSync(join(FIXTURE_PACKS, 'valid'), dir, { recursive: true });
  return dir;
}

const expressions = (dir: string) => Object.fromEntries(loadPacks([dir]).packs[0]!.pack.rules.map((rule) => [rule.id, rule.expression]));

test('rewrites each json-logic expression as a formula that compiles to the same expression; the rest of the file is kept', () => {
  const dir = copyOfValidPack();
  try {
    const before = expressions(dir);
    const { conversions, problems } = convertPacks([dir], { write: true });
    assert.equal(problems, []);
    assert.equal(conversions.map((conversion) => [conversion.ruleId, conversion.formula]), [
      ['levy', 'if grossPay = 0 then 0 else grossPay × levy-rate'],
      ['net-pay', 'grossPay − levy'],
    ]);
    assert.is(
      readFileSync(join(dir, PACK, 'rules/net-pay.yaml'), 'utf8'),
      readFileSync(join(FIXTURE_PACKS, 'valid', PACK, 'rules/net-pay.yaml'), 'utf8').replace(/^expression: .*$/m, 'formula: grossPay − levy'),
    );
    const loaded = loadPacks([dir]);
    assert.equal(loaded.diagnostics, []);
    assert.equal(expressions(dir), before);
    assert.ok(loaded.packs[0]!.pack.rules.every((rule) => rule.formula !== undefined));
    assert.ok(runExamples(loaded.packs[0]!.pack.examples, loaded.packs[0]!.plans).every((result) => result.passed));
    assert.equal(convertPacks([dir], { write: true }), { conversions: [], problems: [] }, 'a second run has nothing to do');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without writing, it only lists what it would convert', () => {
  const dir = copyOfValidPack();
  try {
    const file = join(dir, PACK, 'rules/levy.yaml');
    const original = readFileSync(file, 'utf8');
    assert.equal(convertPacks([dir], { write: false }).conversions.map((conversion) => conversion.ruleId), ['levy', 'net-pay']);
    assert.is(readFileSync(file, 'utf8'), original);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a long formula is written as a literal block; comments inside the expression are reported as dropped', () => {
  const dir = copyOfValidPack();
  try {
    const file = join(dir, PACK, 'rules/levy.yaml');
    const long = `expression:
  # the levy, capped
  min:
    - { "*": [{ var: grossPay }, { param: levy-rate }] }
    - { "*": [{ var: grossPay }${', { param: levy-rate }'.repeat(7)}] }
`;
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^expression:[\s\S]*?(?=^explanation)/m, long));
    const [conversion] = convertPacks([dir], { write: true }).conversions;
    assert.is(conversion!.droppedComments, true);
    const block = ['formula: |-', '  min(', '    grossPay × levy-rate,', `    grossPay${' × levy-rate'.repeat(7)}`, '  )', 'explanation:'].join('\n');
    assert.ok(readFileSync(file, 'utf8').includes(block), readFileSync(file, 'utf8'));
    assert.equal(loadPacks([dir]).diagnostics, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a formula typed in ASCII or laid out by hand is rewritten in the renderer\'s layout and symbols', () => {
  const dir = copyOfValidPack();
  try {
    const file = join(dir, PACK, 'rules/levy.yaml');
    cpSync(new URL('../fixtures/formulas/valid.yaml', import.meta.url), file);
    const before = expressions(dir);
    const { conversions } = convertPacks([dir], { write: true });
    assert.equal(conversions.map(({ ruleId, change }) => [ruleId, change]), [['levy', 'formatted'], ['net-pay', 'converted']]);
    assert.match(readFileSync(file, 'utf8'), /^formula: if grossPay = 0 then 0 else grossPay × levy-rate\nexplanation:/m);
    assert.equal(expressions(dir), before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('leaves alone a pack with diagnostics, and a rule whose formula would not read back the same', () => {
  const dir = copyOfValidPack();
  try {
    const netPay = join(dir, PACK, 'rules/net-pay.yaml');
    // `var` with its name in a list means the same to the engine, but the formula reads back as `{ var: "levy" }`.
    writeFileSync(netPay, readFileSync(netPay, 'utf8').replace('{ var: levy }', '{ var: [levy] }'));
    const { conversions, problems } = convertPacks([dir], { write: true });
    assert.equal(conversions.map((conversion) => conversion.ruleId), ['levy']);
    assert.is(problems.length, 1);
    assert.match(problems[0]!, /rule `net-pay` cannot be written as a formula without changing it/);
    assert.match(readFileSync(netPay, 'utf8'), /^expression: /m);

    writeFileSync(netPay, readFileSync(netPay, 'utf8').replace('{ var: [levy] }', '{ var: levvy }'));
    const broken = convertPacks([dir], { write: true });
    assert.equal(broken.conversions, []);
    assert.match(broken.problems.join('\n'), /fix the pack's diagnostics first[\s\S]*`levvy` is not a required fact/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
