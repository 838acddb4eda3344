// Lane: services (npm run test:fast leaves this file out).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mcpEndpoint } from '../../mcp/http.ts';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { serviceEnvironment, startService, stopService } from '../helpers/service-process.ts';
import { servedPacks, startTestServer } from '../server/helpers.ts';
import { callTool, connectHttp, connectStdio, everyToolAgainstApi, toolName } from './helpers.ts';

// The MCP server as users run it: `npx tax-rules-mcp` spawned by the SDK's client over stdio, and
// the built service (npm start) with API_EXTENSIONS=mcp. Every tool over both, held against the API.

test('over stdio, every tool answers what the API answers for the same settings, TAX_YEARS honoured', async () => {
  const { client, stderr } = await connectStdio({ TAX_YEARS: 'all', DEFAULT_TAX_YEAR: '2025-26', RATE_LIMIT_MAX: '0' });
  const { catalog, defaultTaxYear } = servedPacks({ taxYears: 'all', defaultTaxYear: '2025-26' });
  const { projectDocsSite } = await import('../helpers/docs.ts');
  const api = await startTestServer({ deps: { catalog, ...(defaultTaxYear ? { defaultTaxYear } : {}), docs: await projectDocsSite(catalog), mcpEndpoint } });
  try {
    const called = await everyToolAgainstApi(client, api.url);
    assert.ok(called.includes(toolName('compare_tax_years', 'au.income-tax.annual')));
    const listed = await callTool(client, 'list_calculators', {});
    assert.equal([...new Set(listed.structured.calculators.map((entry: any) => entry.context.taxYear))].sort(), ['2024-25', '2025-26', '2026-27']);
    // Standard output is the protocol's: what the server says of itself goes to standard error.
    const serving = JSON.parse(stderr().split('\n').find((line) => line.includes('"event":"serving"'))!);
    assert.equal(serving.taxYears, ['2024-25', '2025-26', '2026-27']);
    assert.is(serving.defaultTaxYear, '2025-26');
  } finally {
    await client.close();
    await api.close();
  }
});

test('over stdio, settings the service refuses stop the server with the reason on standard error', () => {
  const ran = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin/tax-rules-mcp.js')], { cwd: PROJECT_ROOT, env: serviceEnvironment({ TAX_YEARS: '1999-00' }), input: '', encoding: 'utf8' });
  assert.is(ran.status, 1);
  assert.is(ran.stdout, '', 'nothing but the protocol goes to standard output');
  const line = JSON.parse(ran.stderr.trim());
  assert.is(line.event, 'invalid-configuration');
  assert.match(line.problems[0], 'TAX_YEARS names 1999-00');
});

test('the built service serves every tool at /mcp with API_EXTENSIONS=mcp, and /mcp is 404 without it', async () => {
  const service = await startService({ API_EXTENSIONS: 'mcp', RATE_LIMIT_MAX: '0' });
  try {
    const client = await connectHttp(service.url);
    try {
      await everyToolAgainstApi(client, service.url);
    } finally {
      await client.close();
    }
    assert.match(service.output(), '"route":"/mcp"');
  } finally {
    await stopService(service);
  }
  const plain = await startService({});
  try {
    const response = await fetch(`${plain.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    assert.is(response.status, 404);
    assert.match(await response.text(), 'RouteNotFound');
  } finally {
    await stopService(plain);
  }
});

test.run();
