import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// Which tax years exist is data (the packs and rulepacks/serving.yaml): no code may name one, or a
// new year would need a code change. A tax year is written YYYY-YY with YY the next year's last two
// digits, which tells it from a date (2025-07-01) or a version of JSON Schema (2020-12).
const CODE = ['engine', 'server', 'tools', 'docs-site/lib', 'docs-site/reference', 'docs-site/index.ts', 'bin'];

function files(path: string): string[] {
  const absolute = join(PROJECT_ROOT, path);
  if (/\.(ts|js|json)$/.test(path)) return [absolute];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(path, entry.name)) : /\.(ts|js|json)$/.test(entry.name) ? [join(absolute, entry.name)] : []));
}

/** Every `YYYY-YY` in the text that is a tax year: the second part is the year after the first. */
export function taxYearsIn(text: string): string[] {
  return [...text.matchAll(/(?<![\d-])(\d{4})-(\d{2})(?![\d-])/g)].filter(([, first, second]) => (Number(first) + 1) % 100 === Number(second)).map(([year]) => year);
}

test('the check finds tax years and only tax years', () => {
  assert.equal(taxYearsIn('for the 2025-26 year, from 2025-07-01; draft 2020-12; 1999-00 and 2030-31.'), ['2025-26', '1999-00', '2030-31']);
});

test('no code names a tax year', () => {
  const found = CODE.flatMap(files).flatMap((file) => taxYearsIn(readFileSync(file, 'utf8')).map((year) => `${relative(PROJECT_ROOT, file)}: ${year}`));
  assert.equal(found, []);
});

test.run();
