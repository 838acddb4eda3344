import standalone from 'ajv/dist/standalone/index.js';
import { createPackSchemaAjv, PACK_VALIDATOR_NAMES } from './schemas.ts';

/**
 * The source of an ES module that stands in for precompiled-validators.ts in a build: Ajv's
 * standalone code for every pack-format validator, compiled from the same schemas and options as
 * at load, exported as `PRECOMPILED_VALIDATORS`. The code calls `require` for Ajv's small runtime
 * helpers, which the module defines for itself.
 */
export function packValidatorsModuleSource(): string {
  const code = standalone.default(createPackSchemaAjv({ source: true, esm: true }), Object.fromEntries(PACK_VALIDATOR_NAMES.map((name) => [name, name])));
  return [
    "import { createRequire as createRequireForAjv } from 'node:module';",
    'const require = createRequireForAjv(import.meta.url);',
    code.replace(/^"use strict";/, ''),
    `export const PRECOMPILED_VALIDATORS = { ${PACK_VALIDATOR_NAMES.join(', ')} };`,
    '',
  ].join('\n');
}
