import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// The lint configuration is what enforces the module boundaries, so these tests prove its rules fire
// on deliberately broken modules (test/fixtures/lint). The project itself is linted by `npm run lint`,
// which `npm test` runs before the suite.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'test/fixtures/lint');
const eslint = new ESLint({ cwd: root, ignore: false });

/** Lints a fixture's text as though it lived at `pretendPath` in the project, and returns the rules that fired. */
async function rulesFiredAt(fixture: string, pretendPath: string): Promise<string[]> {
  const [result] = await eslint.lintText(readFileSync(join(fixtures, fixture), 'utf8'), { filePath: join(root, pretendPath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

test('the engine may not import Koa', async () => {
  assert.equal(await rulesFiredAt('engine/knows-http.ts', 'engine/knows-http.ts'), ['no-restricted-imports']);
});

test('the same import is allowed in the service', async () => {
  assert.equal(await rulesFiredAt('engine/knows-http.ts', 'server/knows-http.ts'), []);
});

test('the service may not reach inside the engine', async () => {
  assert.equal(await rulesFiredAt('server/reaches-inside.ts', 'server/reaches-inside.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('server/reaches-inside.ts', 'tools/reaches-inside.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('server/reaches-inside.ts', 'bench/reaches-inside.ts'), ['no-restricted-imports']);
});

test('report templates and the trace may not import the runner, which uses them', async () => {
  assert.equal(await rulesFiredAt('engine/reaches-the-runner.ts', 'engine/report/reaches-the-runner.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('engine/reaches-the-runner.ts', 'engine/trace/reaches-the-runner.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('engine/reaches-the-runner.ts', 'engine/json/reaches-the-runner.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('engine/reaches-the-runner.ts', 'engine/catalog/reaches-the-runner.ts'), []);
});

test('the trace may not import report templates, which use it', async () => {
  assert.equal(await rulesFiredAt('engine/reaches-the-report.ts', 'engine/trace/reaches-the-report.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('engine/reaches-the-report.ts', 'engine/run/reaches-the-report.ts'), []);
});

test('inside the engine, the outward boundaries still hold in every layer', async () => {
  assert.equal(await rulesFiredAt('engine/knows-http.ts', 'engine/report/knows-http.ts'), ['no-restricted-imports']);
  assert.equal(await rulesFiredAt('engine/knows-http.ts', 'engine/trace/knows-http.ts'), ['no-restricted-imports']);
});

test('the service loads the docs compiler only through import()', async () => {
  assert.equal(await rulesFiredAt('server/loads-docs-compiler.ts', 'server/loads-docs-compiler.ts'), ['@typescript-eslint/no-restricted-imports']);
  assert.equal(await rulesFiredAt('server/loads-docs-compiler.ts', 'tools/loads-docs-compiler.ts'), []);
});

test('the service loads the MCP server and its SDK only through import()', async () => {
  assert.equal(await rulesFiredAt('server/loads-mcp.ts', 'server/loads-mcp.ts'), ['@typescript-eslint/no-restricted-imports', '@typescript-eslint/no-restricted-imports']);
  assert.equal(await rulesFiredAt('server/loads-mcp.ts', 'mcp/loads-mcp.ts'), []);
});

test('the MCP server may not reach inside the engine', async () => {
  assert.equal(await rulesFiredAt('server/reaches-inside.ts', 'mcp/reaches-inside.ts'), ['no-restricted-imports']);
});

test("the service's folders import only those below them: contract, then the frame, limits and process, then the routes", async () => {
  const restricted = ['no-restricted-imports'];
  for (const folder of ['contract', 'http', 'limits', 'process']) {
    assert.equal(await rulesFiredAt('server/reaches-a-route.ts', `server/${folder}/reaches-a-route.ts`), restricted, `${folder} importing a route`);
    assert.equal(await rulesFiredAt('server/reaches-the-services.ts', `server/${folder}/reaches-the-services.ts`), restricted, `${folder} importing the services`);
  }
  assert.equal(await rulesFiredAt('server/reaches-the-frame.ts', 'server/contract/reaches-the-frame.ts'), restricted);
  for (const folder of ['process', 'limits', 'catalog', 'docs', 'calculate']) assert.equal(await rulesFiredAt('server/reaches-the-frame.ts', `server/${folder}/reaches-the-frame.ts`), [], folder);
  for (const folder of ['catalog', 'docs', 'calculate']) {
    assert.equal(await rulesFiredAt('server/reaches-the-services.ts', `server/${folder}/reaches-the-services.ts`), [], folder);
    assert.equal(await rulesFiredAt('server/reaches-the-app.ts', `server/${folder}/reaches-the-app.ts`), restricted, folder);
  }
  // Route folders use no other route folder, except that calculate/ finds calculators through catalog/.
  assert.equal(await rulesFiredAt('server/reaches-the-docs-routes.ts', 'server/catalog/reaches-the-docs-routes.ts'), restricted);
  assert.equal(await rulesFiredAt('server/reaches-the-docs-routes.ts', 'server/calculate/reaches-the-docs-routes.ts'), restricted);
  assert.equal(await rulesFiredAt('server/reaches-a-route.ts', 'server/catalog/reaches-a-route.ts'), restricted);
  assert.equal(await rulesFiredAt('server/reaches-a-route.ts', 'server/docs/reaches-a-route.ts'), restricted);
  assert.equal(await rulesFiredAt('server/reaches-the-docs-routes.ts', 'server/app.ts'), []);
  // The engine's boundary holds in every folder of the service.
  for (const folder of ['contract', 'http', 'calculate', 'docs']) assert.equal(await rulesFiredAt('server/reaches-inside.ts', `server/${folder}/reaches-inside.ts`), restricted, folder);
});

/** The messages of the lint rules that fired on fixtures linted where they lie. */
async function messagesOf(...fixtureFiles: string[]): Promise<{ ruleId: string | null; message: string }[]> {
  const results = await eslint.lintFiles(fixtureFiles.map((file) => join(fixtures, file)));
  return results.flatMap((result) => result.messages.map(({ ruleId, message }) => ({ ruleId, message })));
}

test('two modules that import each other are a cycle', async () => {
  const fired = await messagesOf('engine/cycle-first.ts', 'engine/cycle-second.ts');
  assert.equal(fired.map((message) => message.ruleId), ['tax-rules-api/no-import-cycles', 'tax-rules-api/no-import-cycles']);
  assert.ok(fired[0]!.message.includes('test/fixtures/lint/engine/cycle-first.ts → test/fixtures/lint/engine/cycle-second.ts → test/fixtures/lint/engine/cycle-first.ts'), fired[0]!.message);
});

test('a cycle through type-only imports is a cycle too', async () => {
  const fired = await messagesOf('engine/type-cycle-first.ts', 'engine/type-cycle-second.ts');
  assert.equal(fired.map((message) => message.ruleId), ['tax-rules-api/no-import-cycles', 'tax-rules-api/no-import-cycles']);
});

test.run();
