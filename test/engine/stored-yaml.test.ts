import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatDiagnostic, loadPacks, type StoredYamlFiles } from '../../engine/index.ts';
import { storeYaml, yamlDigest, yamlParser } from '../../engine/load/stored-yaml.ts';
import { parseYaml } from '../../engine/load/yaml.ts';
import { FIXTURE_PACKS, SHIPPED_PACKS } from '../helpers/packs.ts';

// A service loads the shipped packs from parses its build stored. A stored parse must be
// indistinguishable from parsing the file: the same value, and every location the same, including
// the places inside formula text that diagnostics point at.

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? yamlFiles(join(dir, entry.name)) : /\.ya?ml$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** Every path into a value, the root's included. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const below = Array.isArray(value)
    ? value.flatMap((item, index) => pathsOf(item, [...path, index]))
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...path, key]))
      : [];
  return [path, ...below];
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((current, step) => (current as Record<string, unknown>)[step], value);
}

const FILES = [...yamlFiles(SHIPPED_PACKS), ...yamlFiles(FIXTURE_PACKS), ...yamlFiles(fileURLToPath(new URL('../fixtures/formulas/', import.meta.url)))];

test('a stored parse gives the value and every location that parsing the file gives', () => {
  let stored = 0;
  for (const file of FILES) {
    const text = readFileSync(file, 'utf8');
    const fresh = parseYaml(file, text);
    const kept = storeYaml(text);
    if (!kept) {
      assert.ok(fresh.diagnostics.length > 0, `${file}: a file without problems is stored`);
      continue;
    }
    stored += 1;
    const restored = yamlParser({ storedYaml: { [yamlDigest(text)]: JSON.parse(JSON.stringify(kept)) } })(file, text);
    assert.equal(restored.value, fresh.value, file);
    assert.equal(restored.diagnostics, []);
    for (const path of pathsOf(fresh.value)) {
      const where = `${relative(SHIPPED_PACKS, file)} ${JSON.stringify(path)}`;
      assert.equal(restored.locate(path), fresh.locate(path), where);
      assert.equal(restored.locate(path, { key: true }), fresh.locate(path, { key: true }), `${where} key`);
      assert.equal(restored.locate([...path, 'not-there', 0]), fresh.locate([...path, 'not-there', 0]), `${where} beyond`);
      const text = valueAt(fresh.value, path);
      if (typeof text !== 'string') continue;
      for (const offset of new Set([0, 1, Math.floor(text.length / 2), text.length - 1, text.length])) {
        assert.equal(restored.locateInText(path, offset), fresh.locateInText(path, offset), `${where} at ${offset}`);
      }
    }
  }
  assert.ok(stored > 60, `${stored} files stored`);
});

test('a stored parse is used only for the very text it was made from', () => {
  const file = join(SHIPPED_PACKS, 'serving.yaml');
  const text = readFileSync(file, 'utf8');
  const stored = { [yamlDigest(text)]: storeYaml(text)! };
  const edited = `${text}taxYears: [2025-26]\n`;
  assert.equal(yamlParser({ storedYaml: stored })('serving.yaml', edited).diagnostics.map(formatDiagnostic), parseYaml('serving.yaml', edited).diagnostics.map(formatDiagnostic));
  assert.match(yamlParser({ storedYaml: stored })('serving.yaml', edited).diagnostics.map(formatDiagnostic).join('\n'), /duplicate key/);
});

test('packs loaded from stored parses are the packs loaded from their files, diagnostics and all', () => {
  for (const root of [SHIPPED_PACKS, ...readdirSync(FIXTURE_PACKS, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(FIXTURE_PACKS, entry.name))]) {
    const storeYamlInto: StoredYamlFiles = {};
    const plain = loadPacks([root], { displayRoot: FIXTURE_PACKS, storeYamlInto });
    const fromStore = loadPacks([root], { displayRoot: FIXTURE_PACKS, storedYaml: JSON.parse(JSON.stringify(storeYamlInto)) as StoredYamlFiles });
    assert.equal(fromStore.diagnostics.map(formatDiagnostic), plain.diagnostics.map(formatDiagnostic), root);
    assert.equal(JSON.stringify(fromStore.packs.map((report) => report.pack)), JSON.stringify(plain.packs.map((report) => report.pack)), root);
    assert.equal(fromStore.packs.map((report) => report.plans.length), plain.packs.map((report) => report.plans.length), root);
  }
});

test.run();
