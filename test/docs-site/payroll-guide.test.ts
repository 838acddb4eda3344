import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { payrollCases, payrollFacts, type PayrollCase } from '../helpers/payroll-conformance.ts';
import { documentedExamples } from './executable-examples.ts';

// The guide "Withhold for every employee" tells integrators which scale each declaration selects and
// what the September 2025 change does to one employee's pay: its tables are read here and checked
// against the tax office's published sample data, so the guide cannot say what the data does not.

const FILE = 'docs-site/content/guides/withhold-for-every-employee.md';
const markdown = readFileSync(new URL(`../../${FILE}`, import.meta.url), 'utf8');

/** The rows of the Markdown table whose header row starts with these cells, as records by header. */
function table(firstHeaders: string[]): Record<string, string>[] {
  const lines = markdown.split('\n');
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
  const start = lines.findIndex((line) => line.startsWith('|') && firstHeaders.every((header, at) => cells(line)[at] === header));
  assert.ok(start >= 0, `a table headed ${firstHeaders.join(' | ')}`);
  const headers = cells(lines[start]!);
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(Object.fromEntries(cells(line).map((cell, at) => [headers[at]!, cell])));
  }
  return rows;
}

const yesNo = (cell: string, value: boolean) => cell === 'any' || cell === (value ? 'yes' : 'no');

test("the guide's scale table gives every published case its published scale", () => {
  const rows = table(['TFN provided', 'Residency']);
  assert.is(rows.length, 6);
  const scaleOf = (item: PayrollCase) =>
    rows.find(
      (row) =>
        yesNo(row['TFN provided']!, item.tfnProvided) &&
        (row.Residency === 'any' || row.Residency === item.residency) &&
        yesNo(row['Tax-free threshold claimed']!, item.taxFreeThresholdClaimed) &&
        (row['Medicare levy exemption'] === 'any' || row['Medicare levy exemption'] === item.medicareLevyExemption),
    )?.Scale;
  const wrong = payrollCases().filter((item) => scaleOf(item) !== String(item.scale));
  assert.is(wrong.length, 0, `${wrong.length} cases, first ${JSON.stringify(wrong[0])}`);
});

test("the guide's example is a published case, and its table of the September 2025 change gives that employee's published amounts", () => {
  const [example] = documentedExamples(FILE, markdown);
  const facts = JSON.parse(example!.body!).facts;
  const published = payrollCases().find((item) => JSON.stringify(payrollFacts(item)) === JSON.stringify(facts));
  assert.ok(published, 'the example request is a published case');
  assert.is((example!.documentedResponse as any).report.withheld.cents, published!.withheldCents);
  assert.is((example!.documentedResponse as any).report.scale, published!.scale);

  const fileOfEdition: Record<string, string> = { 'July 2025': 'nat3539-2025-07.json', 'September 2025': 'nat3539-2025-09.json', none: 'nat1004-2024-07.json' };
  const rows = table(['Payment made', 'Schedule 8 edition']);
  assert.equal(rows.map((row) => row['Schedule 8 edition']).sort(), Object.keys(fileOfEdition).sort());
  const dollars = (cents: number) => `$${(cents / 100).toLocaleString('en-AU', { minimumFractionDigits: 2 })}`;
  for (const row of rows) {
    const studyLoan = row['Schedule 8 edition'] !== 'none';
    const same = (item: PayrollCase) => JSON.stringify({ ...payrollFacts(item), paymentDate: null }) === JSON.stringify({ ...facts, paymentDate: null, studyLoan });
    const item = payrollCases().find((candidate) => candidate.file === fileOfEdition[row['Schedule 8 edition']!] && same(candidate));
    assert.ok(item, row['Payment made']);
    assert.equal([row.Withheld, row.Paid], [dollars(item!.withheldCents), dollars(item!.grossCents - item!.withheldCents)], row['Payment made']);
  }
});

test.run();
