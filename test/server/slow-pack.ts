import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Writes a pack whose one calculator is deliberately slow: a chain of rules, each doing thousands of
 * exact divisions. Generated at test time rather than committed, because it is large and mechanical.
 * Returns the folder that holds it.
 */
export function writeSlowPack(rules = 40, divisionsPerRule = 1500): string {
  const root = mkdtempSync(join(tmpdir(), 'slow-pack-'));
  const dir = join(root, 'test-slow', '1.0.0');
  for (const folder of ['rules', 'calculators']) mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, 'pack.yaml'), 'id: test-slow\nversion: 1.0.0\ntitle: Slow fixture\njurisdiction: { code: AU, title: Australia }\ntaxYear: { id: 2025-26, from: 2025-07-01, toExclusive: 2026-07-01 }\ncurrency: AUD\n');
  writeFileSync(join(dir, 'sources.yaml'), 'sources:\n  - id: fixture\n    kind: internal-validation\n    reference: slow fixture\n    title: A source for a test fixture\n');
  const facts = ['  - { id: step0, title: Start, authority: input, schemaTag: Money, shape: { type: money } }'];
  for (let index = 1; index <= rules; index++) facts.push(`  - { id: step${index}, title: Step ${index}, authority: derived, schemaTag: Money, shape: { type: money } }`);
  writeFileSync(join(dir, 'facts.yaml'), `facts:\n${facts.join('\n')}\n`);
  for (let index = 1; index <= rules; index++) {
    const terms = Array.from({ length: divisionsPerRule }, () => `{"/":[{"var":"step${index - 1}"},${divisionsPerRule}]}`).join(',');
    writeFileSync(
      join(dir, 'rules', `step-${index}.yaml`),
      `id: step-${index}\ntitle: Step ${index}\nrequires: [step${index - 1}]\nprovides: [step${index}]\nsources: [fixture]\nsourcePolicy: required\nrounding: round-to-nearest-cent\nexplanation: Slow on purpose.\nexpression: {"+":[${terms}]}\n`,
    );
  }
  writeFileSync(
    join(dir, 'calculators', 'test.slow.yaml'),
    `id: test.slow\ntitle: Slow\ndescription: A slow calculator for limit tests.\ninputFacts: [step0]\noutputFacts: [step${rules}]\nfactsSchemaName: SlowFacts\nreportSchemaName: SlowReport\nsupportedHelpModes: [errors]\nreport:\n  tag: SlowReport\n  fields:\n    result: { money: step${rules} }\n`,
  );
  return root;
}
