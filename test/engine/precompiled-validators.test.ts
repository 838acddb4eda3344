import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { createPackSchemaAjv, PACK_FILE_KINDS } from '../../engine/load/schemas.ts';
import { packValidatorsModuleSource } from '../../engine/load/standalone-validators.ts';
import { FIXTURE_PACKS, PROJECT_ROOT, SHIPPED_PACKS } from '../helpers/packs.ts';

// A build replaces the pack validators compiled at load with Ajv standalone code made from the same
// schemas. Both must judge every file alike, errors and all, or a built service would report packs
// differently from validate-pack and the tests.

function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFilesUnder(path);
    return entry.name.endsWith('.yaml') ? [path] : [];
  });
}

function kindOf(file: string): (typeof PACK_FILE_KINDS)[number] | undefined {
  const name = basename(file, '.yaml');
  if (name === 'pack' || name === 'sources' || name === 'facts') return name;
  const folder = basename(dirname(file));
  return ({ parameters: 'parameter', rules: 'rule', calculators: 'calculator', examples: 'examples' } as const)[folder];
}

test('the standalone validators give the same verdicts and errors as the ones compiled at load, on every shipped and fixture pack file', async () => {
  // Written inside the project so the module's require() finds Ajv's runtime helpers.
  const dir = mkdtempSync(join(PROJECT_ROOT, 'node_modules', '.precompiled-validators-'));
  try {
    const file = join(dir, 'validators.mjs');
    writeFileSync(file, packValidatorsModuleSource());
    const { PRECOMPILED_VALIDATORS: standalone } = (await import(pathToFileURL(file).href)) as { PRECOMPILED_VALIDATORS: Record<string, ((value: unknown) => boolean) & { errors?: unknown[] | null }> };
    const ajv = createPackSchemaAjv();
    let compared = 0;
    let invalid = 0;
    for (const path of [...yamlFilesUnder(SHIPPED_PACKS), ...yamlFilesUnder(FIXTURE_PACKS)]) {
      const kind = kindOf(path);
      if (kind === undefined) continue;
      let value: unknown;
      try {
        value = parse(readFileSync(path, 'utf8'));
      } catch {
        continue; // the fixtures include YAML that does not parse; that is the loader's to report
      }
      const atLoad = ajv.getSchema(kind)!;
      const built = standalone[kind]!;
      const verdict = atLoad(value);
      assert.is(built(value), verdict, path);
      const shape = (errors: unknown[] | null | undefined) => (errors ?? []).map((error) => { const { instancePath, schemaPath, keyword, params } = error as Record<string, unknown>; return { instancePath, schemaPath, keyword, params }; });
      assert.equal(shape(built.errors), shape(atLoad.errors), path);
      compared++;
      if (!verdict) invalid++;
    }
    assert.ok(compared > 100, `only ${compared} files compared`);
    assert.ok(invalid > 0, 'no invalid file was compared');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
