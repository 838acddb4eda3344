import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLIENT_DESCRIPTION_FILE, DESCRIPTION_FILE, EVERYTHING_SERVED, PROJECT_ROOT, servedDescription } from '../../tools/openapi/default-service.ts';

const run = promisify(execFile);
const bin = (name: string) => join(PROJECT_ROOT, 'node_modules', '.bin', name);

test('the committed openapi.json is exactly what plain npm start serves (npm run openapi:write renews it)', async () => {
  const committed = readFileSync(DESCRIPTION_FILE, 'utf8');
  assert.ok(committed === (await servedDescription()), 'openapi.json is stale: run npm run openapi:write');
});

test("the client's description is exactly what npm start serves with every year, calculator and extension", async () => {
  const committed = readFileSync(CLIENT_DESCRIPTION_FILE, 'utf8');
  assert.ok(committed === (await servedDescription(EVERYTHING_SERVED)), 'packages/client/openapi.json is stale: run npm run openapi:write');
});

// Both linters over the committed file (equal to the served one, above), run side by side; any
// problem of any severity fails. The same commands are `npm run openapi:lint`.
test('the description is clean under Spectral spectral:oas and Redocly recommended', async () => {
  const env = { PATH: process.env.PATH ?? '', REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const [spectral, redocly] = await Promise.all([
    run(bin('spectral'), ['lint', 'openapi.json', '--format', 'json', '--fail-severity', 'hint', '--quiet'], { cwd: PROJECT_ROOT, env }).catch((error) => error),
    run(bin('redocly'), ['lint', 'openapi.json', '--format', 'json'], { cwd: PROJECT_ROOT, env }).catch((error) => error),
  ]);
  const spectralProblems = JSON.parse(spectral.stdout) as { code: string; message: string; path: string[] }[];
  assert.equal(spectralProblems.map((problem) => `${problem.code} at ${problem.path.join('.')}: ${problem.message}`), []);
  const redoclyReport = JSON.parse(redocly.stdout) as { problems: { ruleId: string; message: string }[] };
  assert.equal(redoclyReport.problems.map((problem) => `${problem.ruleId}: ${problem.message}`), []);
});

test.run();
