import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadPacks } from '../../engine/index.ts';
import { loadCatalog } from '../../server/process/boot.ts';
import { FIXTURE_PACKS, PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';

// A service reads a pack without its worked examples (it never runs them, and a year's published
// samples are most of a pack's text); the tools and the tests read and check them as before.

test('without examples the shipped packs load to the same calculators, and with them every pack has its examples', () => {
  const withExamples = loadPacks([SHIPPED_PACKS], { displayRoot: PROJECT_ROOT });
  const without = loadPacks([SHIPPED_PACKS], { displayRoot: PROJECT_ROOT, examples: false });
  assert.equal(without.diagnostics, []);
  for (const report of withExamples.packs) assert.ok(report.pack.examples.length > 0, `${report.pack.id} ${report.pack.version} has examples`);
  for (const report of without.packs) assert.is(report.pack.examples.length, 0);
  const plans = (loaded: typeof without) => loaded.packs.flatMap((report) => report.plans.map((plan) => `${plan.def.id} ${plan.context.taxYear} ${plan.rulePackVersion}`));
  assert.equal(plans(without), plans(withExamples));
});

test('a broken examples file is a diagnostic for the tools, and no reason for a service not to start', () => {
  const root = mkdtempSync(join(tmpdir(), 'broken-examples-'));
  try {
    cpSync(join(FIXTURE_PACKS, 'valid'), root, { recursive: true });
    writeFileSync(join(root, 'fixture-pay', '1.0.0', 'examples', 'worked.yaml'), 'examples: [ { id: unclosed\n');
    assert.ok(loadPacks([root], { displayRoot: root }).diagnostics.some((diagnostic) => diagnostic.location.file.endsWith('worked.yaml')));
    assert.ok(loadCatalog([root]).plans.length > 0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
