import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatDiagnostic, loadPacks, type Diagnostic } from '../../engine/index.ts';
import { PACK_LIMITS } from '../../engine/model/limits.ts';
import { SHIPPED_PACKS } from '../helpers/packs.ts';

// Packs written to hurt: formulas thousands of terms long, nesting thousands deep, huge tables,
// files and mappings far past anything real. Each must come back as diagnostics located where the
// excess was written, naming the limit, quickly; never an exception or a stall.

const PACK = 'rules-au-pay/1.0.0';
/** CPU time allowed for one load; the shipped pack loads in well under a second. A guard against runaway work, not a benchmark. */
const BUDGET_MS = 10_000;

const workDir = mkdtempSync(join(tmpdir(), 'hostile-packs-'));
test.after(() => rmSync(workDir, { recursive: true, force: true }));
let copies = 0;

/** Loads a copy of the shipped pay pack with `edit` applied to one of its files (path relative to the pack). */
function loadEdited(file: string, edit: (text: string) => string): { diagnostics: Diagnostic[]; shown: string[]; ms: number } {
  const root = join(workDir, `copy-${++copies}`);
  cpSync(join(SHIPPED_PACKS, PACK), join(root, PACK), { recursive: true });
  const path = join(root, PACK, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  const started = process.cpuUsage();
  const { diagnostics } = loadPacks([root], { displayRoot: join(root, PACK) });
  const cpu = process.cpuUsage(started);
  return { diagnostics, shown: diagnostics.map(formatDiagnostic), ms: (cpu.user + cpu.system) / 1000 };
}

const formula = (text: string) => (rule: string) => rule.replace(/^formula: .*$/m, `formula: ${text}`);

test('a formula chain of 2,000 subtractions is one expression diagnostic at the term past the limit', () => {
  const chain = `grossPay.amount ${Array(2000).fill('− withholdingsTotal').join(' ')}`;
  const { diagnostics, shown, ms } = loadEdited('rules/net-pay.yaml', formula(chain));
  assert.ok(chain.length > 12_000);
  assert.is(diagnostics.length, 1, shown.join('\n'));
  // The 101st `−` would make the 101st level: its column in the line `formula: …`.
  const line = `formula: ${chain}`;
  let column = -1;
  for (let count = 0; count <= PACK_LIMITS.expressionLevels; count++) column = line.indexOf('−', column + 1);
  assert.equal({ ...diagnostics[0]!.location, kind: diagnostics[0]!.kind }, { file: 'rules/net-pay.yaml', line: 8, column: column + 1, kind: 'expression' });
  assert.match(diagnostics[0]!.message, /nests more than 100 levels deep/);
  assert.match(diagnostics[0]!.message, /a − \(b \+ c \+ …\)/);
  assert.ok(ms < BUDGET_MS, `${ms} ms`);
});

test('functions nested 3,000 deep, and a sum of a hundred alternating signs, are refused at their place', () => {
  const calls = loadEdited('rules/net-pay.yaml', formula(`grossPay.amount − ${'max('.repeat(3000)}withholdingsTotal${')'.repeat(3000)}`));
  assert.equal(calls.shown, [`rules/net-pay.yaml:8:${9 + 'grossPay.amount − '.length + 4 * PACK_LIMITS.expressionLevels + 1} expression rule \`net-pay\`: the formula nests more than 100 levels deep; give parts of it names with \`let\``]);
  const mixed = loadEdited('rules/net-pay.yaml', formula(`grossPay.amount ${Array(150).fill('+ withholdingsTotal − withholdingsTotal').join(' ')}`));
  assert.is(mixed.diagnostics.length, 1, mixed.shown.join('\n'));
  assert.match(mixed.shown[0]!, /^rules\/net-pay\.yaml:8:\d+ expression .*nests more than 100 levels deep/);
});

test('a json-logic expression 120 operations deep is an expression diagnostic; 5,000 deep, a parse diagnostic naming the limit', () => {
  const nested = (depth: number) => `${'{ "-": [1, '.repeat(depth)}{ var: grossPay.amount }${'] }'.repeat(depth)}`;
  const deep = loadEdited('rules/net-pay.yaml', (rule) => rule.replace(/^formula: .*$/m, `expression: ${nested(120)}`));
  assert.is(deep.diagnostics.length, 1, deep.shown.join('\n'));
  assert.is(deep.diagnostics[0]!.kind, 'expression');
  assert.is(deep.diagnostics[0]!.location.line, 8);
  assert.match(deep.diagnostics[0]!.message, /nests more than 100 operations deep/);
  const deeper = loadEdited('rules/net-pay.yaml', (rule) => rule.replace(/^formula: .*$/m, `expression: ${nested(5000)}`));
  assert.is(deeper.diagnostics.length, 1, deeper.shown.join('\n'));
  assert.is(deeper.diagnostics[0]!.kind, 'parse');
  assert.is(deeper.diagnostics[0]!.location.line, 8);
  assert.match(deeper.diagnostics[0]!.message, /nested more than 250 levels deep .* may nest at most 250 levels/);
  assert.not.match(deeper.diagnostics[0]!.message, /call stack/);
});

test('block nesting 400 deep is refused at the line that goes past the limit', () => {
  const { diagnostics, shown } = loadEdited('facts.yaml', (text) => `${text}deep:\n${Array.from({ length: 400 }, (_, index) => `${' '.repeat(index + 1)}k:`).join('\n')} 1\n`);
  const firstLine = readFileSync(join(SHIPPED_PACKS, PACK, 'facts.yaml'), 'utf8').split('\n').length;
  assert.is(diagnostics.length, 1, shown.join('\n'));
  // The file's mapping is level 1; the `k:` indented n spaces, on line firstLine + n, starts level n + 1.
  assert.equal(diagnostics[0]!.location, { file: 'facts.yaml', line: firstLine + PACK_LIMITS.yamlLevels, column: PACK_LIMITS.yamlLevels + 1 });
});

test('a parameter table of 100,000 rows is refused whole, by its size, at once', () => {
  const rows = Array.from({ length: 100_000 }, (_, index) => `      - { below: ${4000 + index}, a: "0.1600", b: "0.1600" }`).join('\n');
  const { diagnostics, shown, ms } = loadEdited('parameters/withholding-scale-1.yaml', (text) => text.replace(/^(\s+- \{ below: null)/m, `${rows}\n$1`));
  assert.is(diagnostics.length, 1, shown.join('\n'));
  assert.match(shown[0]!, /^parameters\/withholding-scale-1\.yaml:1:1 parse the file is 4\.\d MB; a rule pack file may be at most 1 MB$/);
  assert.ok(ms < BUDGET_MS, `${ms} ms`);
});

test('a table of 1,001 rows is refused at its 1,001st row', () => {
  const rows = Array.from({ length: 1000 }, (_, index) => `      - { below: ${4000 + index}, a: "0.1600", b: "0.1600" }`).join('\n');
  const { diagnostics, shown } = loadEdited('parameters/withholding-scale-1.yaml', (text) => text.replace(/^(\s+- \{ below: null)/m, `${rows}\n$1`));
  const lines = readFileSync(join(SHIPPED_PACKS, PACK, 'parameters/withholding-scale-1.yaml'), 'utf8').split('\n');
  const firstRow = lines.findIndex((line) => line.includes('- { below:')) + 1;
  const rowsBefore = lines.findIndex((line) => line.includes('below: null')) + 1 - firstRow;
  // Rows written before the 1,000 added ones, then the added ones: the 1,001st row of the table.
  assert.is(diagnostics.length, 1, shown.join('\n'));
  assert.equal(diagnostics[0]!.location, { file: 'parameters/withholding-scale-1.yaml', line: firstRow + 1000, column: 9 });
  assert.match(diagnostics[0]!.message, new RegExp(`this table has ${rowsBefore + 1001} rows; a table may have at most 1000`));
});

test('a pack of files each under the file limit but together past the pack limit is refused whole, unread', () => {
  const filler = `# ${'x'.repeat(98)}\n`.repeat(9000); // 909,000 bytes of comment
  const { diagnostics, shown, ms } = loadEdited('pack.yaml', (text) => text);
  assert.equal(shown, []);
  const root = join(workDir, `copy-${copies}`);
  for (let index = 1; index <= 5; index++) writeFileSync(join(root, PACK, 'examples', `padding-${index}.yaml`), `${filler}examples: []\n`);
  const started = process.cpuUsage();
  const loaded = loadPacks([root], { displayRoot: join(root, PACK) });
  const cpu = process.cpuUsage(started);
  assert.is(loaded.diagnostics.length, 1, loaded.diagnostics.map(formatDiagnostic).join('\n'));
  assert.match(formatDiagnostic(loaded.diagnostics[0]!), /^pack\.yaml:1:1 parse the pack's YAML files come to 4\.\d MB; a rule pack may hold at most 4 MB \(the largest file is examples\/padding-\d\.yaml, \d+ KB\)$/);
  assert.is(loaded.packs[0]!.fileCount, 0);
  assert.ok(diagnostics.length === 0 && ms < BUDGET_MS && (cpu.user + cpu.system) / 1000 < BUDGET_MS);
});

test('a mapping of 40,000 keys with one repeated reports the key by name, both places, in linear time', () => {
  const keys = Array.from({ length: 40_000 }, (_, index) => `k${index}: ${index}`).join('\n');
  const { diagnostics, shown, ms } = loadEdited('sources.yaml', (text) => `${text}extra:\n${keys.replace(/^/gm, '  ')}\n  k7: again\n`);
  const base = readFileSync(join(SHIPPED_PACKS, PACK, 'sources.yaml'), 'utf8').split('\n').length;
  assert.equal(shown, [`sources.yaml:${base + 40_001}:3 parse duplicate key \`k7\`: it appears twice in this mapping (first on line ${base + 8}); keep one`]);
  assert.is(diagnostics.length, 1);
  assert.ok(ms < BUDGET_MS, `${ms} ms`);
});

test('a formula with 20,000 `let` values, or thousands of unknown names, is read in linear time', () => {
  const lets = `let ${Array.from({ length: 20_000 }, (_, index) => `v${index} = ${index === 0 ? 'withholdingsTotal' : `v${index - 1}`}`).join('; ')} in grossPay.amount − v19999`;
  const bound = loadEdited('rules/net-pay.yaml', formula(lets));
  assert.equal(bound.shown, []);
  assert.ok(bound.ms < BUDGET_MS, `${bound.ms} ms`);
  const unknown = `let ${Array.from({ length: 10_000 }, (_, index) => `v${index} = withholdingsTotal`).join('; ')} in ${Array.from({ length: 10_000 }, (_, index) => `u${index}`).join(' + ')}`;
  const { diagnostics, ms } = loadEdited('rules/net-pay.yaml', formula(unknown));
  assert.is(diagnostics.length, 51);
  assert.match(diagnostics[0]!.message, /`u0` is not a required fact, parameter or `let` value of this rule; did you mean `v0`\?/);
  assert.match(diagnostics[50]!.message, /and 9950 more unknown names in this formula/);
  assert.ok(ms < BUDGET_MS, `${ms} ms`);
});

test.run();
