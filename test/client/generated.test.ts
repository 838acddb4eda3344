import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DESCRIPTION_FILE, GENERATED_FILE, generateTypes } from '../../packages/client/scripts/generate.ts';

test('the client types committed are what openapi-typescript makes of its committed description', async () => {
  const fresh = await generateTypes(readFileSync(DESCRIPTION_FILE, 'utf8'));
  assert.ok(fresh === readFileSync(GENERATED_FILE, 'utf8'), 'packages/client/src/generated/api.ts is stale: run npm run openapi:write');
});

test.run();
