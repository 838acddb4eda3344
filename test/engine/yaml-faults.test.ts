import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatDiagnostic, loadPacks } from '../../engine/index.ts';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// The mistakes an analyst makes editing a pack's YAML, one file each in test/fixtures/yaml-faults:
// each replaces a file of a shipped pack and says, in its second line, where the one diagnostic
// must be and words its message must hold. The message says what is wrong in the analyst's terms,
// naming the key or construct, on the line where the mistake was written; never in the YAML
// library's own words.

const FAULTS = fileURLToPath(new URL('../fixtures/yaml-faults/', import.meta.url));
/** The YAML library's phrases, which mean nothing to someone editing a pack. */
const LIBRARY_WORDS = [
  /Flow (map|sequence) in block collection/,
  /Nested mappings are not allowed/,
  /Implicit (map )?keys/,
  /sufficiently indented/,
  /Map keys must be unique/,
  /Unexpected (scalar|token)/,
  /Plain value cannot start/,
  /All (mapping|sequence) items must start/,
  /Block collections are not allowed/,
  /Missing closing/,
  /Maximum call stack/,
  /must be (array|object|string)$/,
];

interface Fault {
  name: string;
  /** The file it replaces, and in which pack (relative to the project). */
  replaces: string;
  pack: string;
  line: number;
  column: number;
  words: string[];
  text: string;
}

function readFaults(): Fault[] {
  return readdirSync(FAULTS)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(FAULTS, name), 'utf8');
      const [first = '', second = ''] = text.split('\n');
      const where = /replaces (\S+) of (\S+)\.$/.exec(first);
      const expected = /^# Expected: (\d+):(\d+) (.*)$/.exec(second);
      if (!where || !expected) throw new Error(`${name} does not say what it replaces and what is expected in its first two lines`);
      const words = [...expected[3]!.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((match) => JSON.parse(match[0]) as string);
      return { name, replaces: where[1]!, pack: where[2]!, line: Number(expected[1]), column: Number(expected[2]), words, text };
    });
}

const workDir = mkdtempSync(join(tmpdir(), 'yaml-faults-'));
test.after(() => rmSync(workDir, { recursive: true, force: true }));

test('the fixture set holds at least ten common mistakes, each with what is expected', () => {
  const faults = readFaults();
  assert.ok(faults.length >= 10, `${faults.length} fixtures`);
  for (const fault of faults) assert.ok(fault.words.length > 0, fault.name);
});

for (const fault of readFaults()) {
  test(`${fault.name}: one diagnostic, at ${fault.line}:${fault.column}, in plain words`, () => {
    const root = join(workDir, fault.name);
    const packDir = join(root, fault.pack.split('/').slice(-2).join('/'));
    cpSync(join(PROJECT_ROOT, fault.pack), packDir, { recursive: true });
    writeFileSync(join(packDir, fault.replaces), fault.text);
    const { diagnostics } = loadPacks([root], { displayRoot: packDir });
    const shown = diagnostics.map(formatDiagnostic).join('\n');
    assert.is(diagnostics.length, 1, shown);
    const [diagnostic] = diagnostics;
    assert.equal(diagnostic!.location, { file: fault.replaces, line: fault.line, column: fault.column }, shown);
    for (const words of fault.words) assert.ok(diagnostic!.message.includes(words), `${shown}\nshould say: ${words}`);
    for (const words of LIBRARY_WORDS) assert.not.match(diagnostic!.message, words, shown);
  });
}

test.run();
