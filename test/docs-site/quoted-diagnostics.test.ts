import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { checkPacks, selectionProblems } from '../../tools/validate-pack/check.ts';
import { formatReport } from '../../tools/validate-pack/report.ts';
import { documentedRuns, fencedBlocks, normalizeOutput } from './cli-blocks.ts';

// The docs quote what validate-pack prints for edits their prose describes (a source id misspelt, a
// value added without closing the old one, a slip in the YAML) in blocks no command runs. Each such
// line must have its edit in test/fixtures/docs/quoted-diagnostics.yaml; the test makes the edit in
// a scratch copy, checks it as validate-pack does, and the quoted line must be what it prints today.

const CONTENT = fileURLToPath(new URL('../../docs-site/content/', import.meta.url));
const FIXTURE = 'test/fixtures/docs/quoted-diagnostics.yaml';

/** A printed problem line: `file:line:col kind message`, at the left margin. */
const DIAGNOSTIC_LINE = /^\S+:\d+:\d+ [a-z][a-z-]* \S/;

/** One change to the scratch copy, on a path relative to the scratch folder. */
type Edit =
  | { file: string; find: string; replace: string }
  | { file: string; append: string }
  | { file: string; from: string }
  | { copy: string; to: string };

interface Entry {
  /** The line as the docs quote it. */
  quoted: string;
  /** Project folders copied to the same place in the scratch folder. */
  copy: string[];
  edits: Edit[];
  /** The folder validate-pack runs in, inside the scratch folder (default: the scratch folder). */
  runIn?: string;
  /** What validate-pack is given, relative to runIn. */
  validate: string[];
}

/** A quoted line, where it is, and the lines of its block. */
interface Quote {
  file: string;
  line: number;
  text: string;
  /** The indented lines that follow it (an example's figures), which the tool prints beneath it. */
  following: string[];
  /** The whole block, when it is a whole report (it starts with the `pack` line). */
  report?: string;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
}

/** Problem lines in fenced blocks that no docs test runs (a `console` block running one of our tools is run as a whole). */
function quotedLines(file: string, markdown: string): Quote[] {
  const runLines = new Set(documentedRuns(file, markdown).map((run) => run.line));
  return fencedBlocks(markdown)
    .filter((block) => !runLines.has(block.line))
    .flatMap((block) => {
      const lines = block.text.split('\n');
      const report = lines[0]!.startsWith('pack ') ? block.text : undefined;
      return lines.flatMap((text, index) => {
        if (!DIAGNOSTIC_LINE.test(text)) return [];
        const following: string[] = [];
        for (let next = index + 1; next < lines.length && /^\s+\S/.test(lines[next]!); next++) following.push(lines[next]!);
        const line = block.line + 1 + index;
        return [report === undefined ? { file, line, text, following } : { file, line, text, following: [], report }];
      });
    });
}

const quotes = [...markdownFiles(CONTENT), join(PROJECT_ROOT, 'README.md')].flatMap((file) => quotedLines(relative(PROJECT_ROOT, file), readFileSync(file, 'utf8')));
const entries = parse(readFileSync(join(PROJECT_ROOT, FIXTURE), 'utf8')) as Entry[];

/** Makes the entry's edits in a scratch folder and returns what validate-pack prints, run in the entry's folder there. */
function printedFor(entry: Entry): string {
  const scratch = mkdtempSync(join(tmpdir(), 'quoted-diagnostic-'));
  try {
    for (const folder of entry.copy) cpSync(join(PROJECT_ROOT, folder), join(scratch, folder), { recursive: true });
    for (const edit of entry.edits) applyEdit(scratch, edit);
    // validate-pack shows paths relative to the folder it runs in; the check is synchronous, so
    // nothing else runs while the working folder is the scratch one.
    const cwd = process.cwd();
    process.chdir(join(scratch, entry.runIn ?? '.'));
    try {
      const outcome = checkPacks(entry.validate);
      if (!outcome.ok) throw new Error(selectionProblems(outcome).join('; '));
      return formatReport(outcome.packs);
    } finally {
      process.chdir(cwd);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function applyEdit(scratch: string, edit: Edit): void {
  if ('copy' in edit) {
    cpSync(join(scratch, edit.copy), join(scratch, edit.to), { recursive: true });
    return;
  }
  const path = join(scratch, edit.file);
  if ('from' in edit) {
    cpSync(join(PROJECT_ROOT, edit.from), path);
    return;
  }
  const text = readFileSync(path, 'utf8');
  if ('append' in edit) {
    writeFileSync(path, text + edit.append);
    return;
  }
  const at = text.indexOf(edit.find);
  if (at < 0 || text.indexOf(edit.find, at + 1) >= 0) throw new Error(`${FIXTURE}: \`${edit.find}\` must occur once in ${edit.file}`);
  writeFileSync(path, text.slice(0, at) + edit.replace + text.slice(at + edit.find.length));
}

test('the helper finds problem lines in blocks no test runs, with the lines beneath them', () => {
  const page = [
    '```text',
    'rules/a.yaml:2:5 example `x` (c) does not give the expected figures',
    '    f: expected 1, actual 2',
    'prose: not a problem line',
    '```',
    '',
    '```console',
    '$ npx validate-pack rulepacks',
    'rules/b.yaml:1:1 schema run by the console test',
    '```',
    '',
    '```text',
    'pack p/1.0.0 (p)',
    'rules/c.yaml:3:1 cycle in a whole report',
    '```',
  ].join('\n');
  assert.equal(quotedLines('page.md', page), [
    { file: 'page.md', line: 2, text: 'rules/a.yaml:2:5 example `x` (c) does not give the expected figures', following: ['    f: expected 1, actual 2'] },
    { file: 'page.md', line: 14, text: 'rules/c.yaml:3:1 cycle in a whole report', following: [], report: 'pack p/1.0.0 (p)\nrules/c.yaml:3:1 cycle in a whole report' },
  ]);
});

test('the docs quote problem lines, and the fixture gives the edit of each', () => {
  assert.ok(quotes.length >= 20, `found ${quotes.length} quoted problem lines`);
  const known = new Set(entries.map((entry) => entry.quoted));
  const missing = quotes.filter((quote) => !known.has(quote.text)).map((quote) => `${quote.file}:${quote.line}: ${quote.text}`);
  assert.equal(missing, [], `quoted problem lines with no edit in ${FIXTURE} (add the edit that produces each):\n${missing.join('\n')}`);
  const quotedTexts = new Set(quotes.map((quote) => quote.text));
  const unused = entries.filter((entry) => !quotedTexts.has(entry.quoted)).map((entry) => entry.quoted);
  assert.equal(unused, [], `entries of ${FIXTURE} no page quotes`);
});

for (const entry of entries) {
  const at = quotes.filter((quote) => quote.text === entry.quoted);
  test(`quoted as validate-pack prints it: ${at.map((quote) => `${quote.file}:${quote.line}`).join(', ') || entry.quoted}`, () => {
    const printed = printedFor(entry);
    const lines = printed.split('\n');
    const where = lines.indexOf(entry.quoted);
    assert.ok(where >= 0, `validate-pack does not print the quoted line after the edit; it prints:\n${printed}`);
    for (const quote of at) {
      if (quote.report !== undefined) assert.fixture(normalizeOutput(quote.report), normalizeOutput(printed), `${quote.file}:${quote.line}: the quoted report`);
      else assert.equal(lines.slice(where + 1, where + 1 + quote.following.length), quote.following, `${quote.file}:${quote.line}: the lines beneath it`);
    }
  });
}

test.run();
