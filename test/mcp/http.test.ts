import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mcpEndpoint } from '../../mcp/http.ts';
import type { ServiceConfig } from '../../server/process/config.ts';
import { projectDocsSite } from '../helpers/docs.ts';
import { payFacts } from '../helpers/packs.ts';
import { servedPacks, startTestServer, type TestServer } from '../server/helpers.ts';
import { api, callTool, connectHttp, everyToolAgainstApi, toolName } from './helpers.ts';

// The MCP server over streamable HTTP at /mcp, in a listening service (API_EXTENSIONS=mcp): every
// tool against the API, refusals as the API words them, and the calculate route's limits.

const MCP: Partial<ServiceConfig> = { apiExtensions: new Set(['mcp']) };
const TAKE_HOME = 'au.pay.take-home';
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * A listening service with these options, given the MCP endpoint this process loaded: the service's
 * own import() of it would load a second copy of the engine beside the one this test runs under tsx's
 * require hook (the built service, which has one copy, is tested in transports.test.ts).
 */
async function withServer(options: Parameters<typeof startTestServer>[0], body: (server: TestServer) => Promise<void>): Promise<void> {
  const server = await startTestServer({ ...options, deps: { mcpEndpoint, ...options?.deps } });
  try {
    await body(server);
  } finally {
    await server.close();
  }
}

test('/mcp is not served unless API_EXTENSIONS names mcp; served, it takes POST only', async () => {
  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } };
  await withServer({}, async (plain) => {
    const response = await fetch(`${plain.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(initialize) });
    assert.is(response.status, 404);
    assert.match(await response.text(), 'RouteNotFound');
  });
  await withServer({ config: MCP }, async (server) => {
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(initialize) });
    assert.is(response.status, 200);
    assert.is((await response.json()).result.serverInfo.name, 'tax-rules-api');
    assert.ok(response.headers.get('x-request-id'), 'an MCP answer carries the request id, as every answer does');
    const get = await fetch(`${server.url}/mcp`);
    assert.is(get.status, 405);
    assert.is(get.headers.get('allow'), 'POST');
    // The request went through the service's one pipeline: one log line each, under the route's template.
    assert.equal(server.logs.map(({ method, route, status }) => ({ method, route, status })), [
      { method: 'POST', route: '/mcp', status: 200 },
      { method: 'GET', route: '(unmatched)', status: 405 },
    ]);
  });
});

test('every tool over streamable HTTP answers what the API answers, and calculations match the published figures', async () => {
  const { catalog, defaultTaxYear } = servedPacks();
  await withServer({ config: MCP, deps: { catalog, ...(defaultTaxYear ? { defaultTaxYear } : {}), docs: await projectDocsSite(catalog) } }, async (server) => {
    const client = await connectHttp(server.url);
    try {
      await everyToolAgainstApi(client, server.url);
    } finally {
      await client.close();
    }
  });
});

test('with every calculator and year served, the payroll calculator too answers through MCP as the API does, with the published figures', async () => {
  const { catalog, defaultTaxYear } = servedPacks({ taxYears: 'all', calculators: 'all', defaultTaxYear: '2025-26' });
  assert.ok(catalog.withId('au.payroll.withholding').length > 0);
  await withServer({ config: MCP, deps: { catalog, ...(defaultTaxYear ? { defaultTaxYear } : {}), docs: await projectDocsSite(servedPacks().catalog) } }, async (server) => {
    const client = await connectHttp(server.url);
    try {
      const called = await everyToolAgainstApi(client, server.url);
      assert.ok(called.includes(toolName('calculate', 'au.payroll.withholding')));
    } finally {
      await client.close();
    }
  });
});

test('with every tax year served, each year is calculated and compared as the API does', async () => {
  const { catalog, defaultTaxYear } = servedPacks({ taxYears: 'all', defaultTaxYear: '2025-26' });
  await withServer({ config: MCP, deps: { catalog, ...(defaultTaxYear ? { defaultTaxYear } : {}) } }, async (server) => {
    const client = await connectHttp(server.url);
    try {
      const { tools } = await client.listTools();
      const calculate = tools.find((tool) => tool.name === toolName('calculate', TAKE_HOME))!;
      // The input schema is the pack's facts schema, with the years this calculator serves.
      const facts = calculate.inputSchema.properties!.facts as { required: string[] };
      assert.equal(facts.required, ['grossPay', 'taxFreeThresholdClaimed']);
      assert.equal((calculate.inputSchema.properties!.taxYear as { enum: string[] }).enum, ['2024-25', '2025-26', '2026-27']);
      // Docs are not served by this service: the docs tools say so as the API does.
      const search = await callTool(client, 'search_docs', { term: 'withholding' });
      assert.ok(search.isError);
      assert.equal(search.structured, (await api(server.url, '/api/v1/docs/search?term=withholding')).json);
    } finally {
      await client.close();
    }
  });
});

test('bad input gets the located issues the API gives, and never the rejected value', async () => {
  const { catalog, defaultTaxYear } = servedPacks();
  await withServer({ config: MCP, deps: { catalog, ...(defaultTaxYear ? { defaultTaxYear } : {}), docs: await projectDocsSite(catalog) } }, async (server) => {
    const client = await connectHttp(server.url);
    const secret = 'SECRET-VALUE-4471';
    const refusedAlike = async (name: string, args: Record<string, unknown>, path: string, body?: unknown) => {
      const answer = await callTool(client, name, args);
      const fromApi = await api(server.url, path, body);
      assert.ok(answer.isError, `${name} refuses ${JSON.stringify(args)}`);
      assert.ok(fromApi.status >= 400);
      assert.equal(answer.structured, fromApi.json, `${name}: the refusal is the API's`);
      const tag = fromApi.json.error?._tag ?? fromApi.json._tag;
      assert.ok(answer.text.startsWith(`Refused (HTTP ${fromApi.status} ${tag})`), answer.text);
      assert.not.ok(answer.text.includes(secret), 'the refusal does not echo the value');
      return answer;
    };
    try {
      const calculate = toolName('calculate', TAKE_HOME);
      const path = `/api/v1/calculators/${TAKE_HOME}/calculate`;
      const badFacts = { grossPay: secret, taxFreeThresholdClaimed: secret };
      const decode = await refusedAlike(calculate, { facts: badFacts, help: 'full' }, `${path}?help=full`, { facts: badFacts });
      assert.equal(decode.structured.error.issues.map((issue: { path: string[] }) => issue.path.join('.')).sort(), ['facts.grossPay', 'facts.taxFreeThresholdClaimed']);
      assert.ok(decode.structured.error.help.length > 0, 'with help=full the refusal carries the help, as the API gives it');
      await refusedAlike(calculate, { facts: payFacts(100_000, 'weekly', true), salary: secret }, path, { facts: payFacts(100_000, 'weekly', true), salary: secret });
      await refusedAlike(calculate, { facts: payFacts(100_000, 'weekly', true), taxYear: '1999-00' }, path, { facts: payFacts(100_000, 'weekly', true), taxYear: '1999-00' });
      await refusedAlike(calculate, { facts: payFacts(100_000, 'weekly', true), help: secret }, `${path}?help=${secret}`, { facts: payFacts(100_000, 'weekly', true) });
      await refusedAlike(toolName('compare_tax_years', TAKE_HOME), { facts: badFacts, taxYear: '2025-26', againstTaxYear: '2025-26' }, path, { facts: badFacts, taxYear: '2025-26' });
      await refusedAlike('describe_calculator', { calculatorId: 'au.nowhere' }, '/api/v1/calculators/au.nowhere/schema');
      await refusedAlike('list_calculators', { taxYear: secret }, `/api/v1/calculators?taxYear=${secret}`);
      await refusedAlike('read_doc', { path: '/no/such/page' }, '/api/v1/docs/page?path=/no/such/page');
      await refusedAlike('search_docs', { term: '' }, '/api/v1/docs/search?term=');

      // What only MCP can send: arguments of the wrong type, arguments a tool does not take, a tool that does not exist.
      const wrongType = await callTool(client, 'list_calculators', { taxYear: 2025, [secret]: true });
      assert.ok(wrongType.isError);
      assert.equal(wrongType.structured.error.issues.map((issue: { path: string[] }) => issue.path), [[secret]]);
      const typed = await callTool(client, 'list_calculators', { taxYear: 2025 });
      assert.equal(typed.structured.error.issues, [{ _tag: 'CalculatorInputIssue', message: 'must be a string', path: ['taxYear'] }]);
      try {
        await client.callTool({ name: 'calculate_nothing', arguments: {} });
        assert.unreachable('an unknown tool is a protocol error');
      } catch (error) {
        assert.instance(error, McpError);
      }
    } finally {
      await client.close();
    }
  });
});

test('calculations through MCP count against the rate limit and load shedding of calculate', async () => {
  const facts = payFacts(165_400, 'weekly', true);
  const path = `/api/v1/calculators/${TAKE_HOME}/calculate`;
  await withServer({ config: { ...MCP, rateLimitMax: 4 } }, async (server) => {
    const client = await connectHttp(server.url);
    try {
      assert.is((await api(server.url, path, { facts })).status, 200);
      assert.not.ok((await callTool(client, toolName('calculate', TAKE_HOME), { facts })).isError);
      // A comparison is two calculations.
      assert.not.ok((await callTool(client, toolName('compare_tax_years', TAKE_HOME), { facts, taxYear: '2025-26', againstTaxYear: '2025-26' })).isError);
      const limited = await callTool(client, toolName('calculate', TAKE_HOME), { facts });
      const fromApi = await api(server.url, path, { facts });
      assert.is(fromApi.status, 429);
      assert.ok(limited.isError);
      assert.equal(limited.structured, fromApi.json);
      // Listing and describing are not calculations.
      assert.not.ok((await callTool(client, 'describe_calculator', { calculatorId: TAKE_HOME })).isError);
    } finally {
      await client.close();
    }
  });
  await withServer({ config: MCP, deps: { load: { saturated: () => true, close: () => undefined } } }, async (server) => {
    const client = await connectHttp(server.url);
    try {
      const shed = await callTool(client, toolName('calculate', TAKE_HOME), { facts });
      const fromApi = await api(server.url, path, { facts });
      assert.is(fromApi.status, 503);
      assert.ok(shed.isError);
      assert.equal(shed.structured, fromApi.json);
      assert.is(shed.structured.error._tag, 'CalculatorCapacityExceeded');
    } finally {
      await client.close();
    }
  });
});

test('an MCP request is held to the body limit of calculate', async () => {
  await withServer({ config: { ...MCP, bodyLimitBytes: 1024 } }, async (server) => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_calculators', arguments: { padding: 'x'.repeat(2048) } } };
    const response = await fetch(`${server.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(call) });
    assert.is(response.status, 413);
    assert.is((await response.json()).error._tag, 'CalculatorRequestBodyTooLarge');
  });
});

test.run();
