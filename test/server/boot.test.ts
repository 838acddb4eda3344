import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BootFailure, loadCatalog } from '../../server/process/boot.ts';
import { SHIPPED_PACKS } from '../helpers/packs.ts';

// The API publishes closed enumerations (source kinds, rounding names, ledger effects, help modes…)
// whose values come from the packs. A pack that would answer outside them must stop the boot.

/** The shipped pay pack copied to a temporary folder, with one file edited. */
function editedPayPack(file: string, edit: (text: string) => string): { dir: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'boot-'));
  const dir = join(root, 'rules-au-pay', '1.0.0');
  cpSync(join(SHIPPED_PACKS, 'rules-au-pay', '1.0.0'), dir, { recursive: true });
  const path = join(dir, file);
  const before = readFileSync(path, 'utf8');
  const after = edit(before);
  assert.is.not(after, before, `the edit of ${file} changed nothing`);
  writeFileSync(path, after);
  return { dir: root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

function bootFailure(packs: string): string {
  try {
    loadCatalog([packs]);
  } catch (error) {
    if (error instanceof BootFailure) return error.message;
    throw error;
  }
  assert.unreachable('the boot went ahead');
  return '';
}

test('the shipped packs boot', () => {
  assert.ok(loadCatalog([SHIPPED_PACKS]).plans.length > 0);
});

test('a rounding mode the API does not name stops the boot, located where the rule uses it', () => {
  const pack = editedPayPack('pack.yaml', (text) => text.replace('id: ato-withholding-rounding', 'id: bankers-rounding'));
  try {
    const rule = join(pack.dir, 'rules-au-pay/1.0.0/rules/payg-withholding.yaml');
    writeFileSync(rule, readFileSync(rule, 'utf8').replace('rounding: ato-withholding-rounding', 'rounding: bankers-rounding'));
    const message = bootFailure(pack.dir);
    assert.match(message, /payg-withholding\.yaml:8:11 schema rule `payg-withholding` rounds with `bankers-rounding`; the API allows none, round-to-nearest-cent, .*ato-withholding-rounding/);
  } finally {
    pack.remove();
  }
});

test('a source kind the API does not name stops the boot', () => {
  const pack = editedPayPack('sources.yaml', (text) => text.replace('kind: legislation', 'kind: press-release'));
  try {
    assert.match(bootFailure(pack.dir), /sources\.yaml:\d+:\d+ schema source `[a-z0-9-]+` has kind `press-release`; the API allows ato-publication, legislation, regulation, internal-validation/);
  } finally {
    pack.remove();
  }
});

test.run();
