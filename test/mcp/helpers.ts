import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { CONFORMANCE_YEARS, journeysOf } from '../helpers/conformance.ts';
import { payrollCases, payrollFacts, payrollLabel } from '../helpers/payroll-conformance.ts';
import { money, payFacts, PROJECT_ROOT } from '../helpers/packs.ts';
import { serviceEnvironment } from '../helpers/service-process.ts';

// The MCP server's tests use the SDK's own client, over both transports, and hold every answer
// against what the API answers for the same request and against the published figures.

/** What a tool call answered: its text, its structured content, and whether it is a refusal. */
export interface ToolCall {
  text: string;
  structured: any;
  isError: boolean;
}

export async function connectHttp(url: string): Promise<Client> {
  const client = new Client({ name: 'tax-rules-api-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}

/** `node bin/tax-rules-mcp.js` as an MCP client starts it, with these settings; what it writes to standard error is kept. */
export async function connectStdio(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(PROJECT_ROOT, 'bin/tax-rules-mcp.js')],
    cwd: PROJECT_ROOT,
    env: serviceEnvironment(env) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'tax-rules-api-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolCall> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  assert.is(content.length, 1, `${name} answers one text`);
  assert.is(content[0]!.type, 'text');
  return { text: content[0]!.text, structured: result.structuredContent, isError: result.isError === true };
}

/** An API answer: status and parsed body. */
export async function api(url: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const response = await fetch(`${url}${path}`, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}

/** A tool's name for a calculator, as the guide documents it: dots written as underscores. */
export function toolName(prefix: string, calculatorId: string): string {
  return `${prefix}_${calculatorId.replaceAll('.', '_')}`;
}

/** A published case for a calculator: the facts, and the check of its report against the published figures. */
interface PublishedCase {
  name: string;
  facts: unknown;
  check(report: any): void;
}

const cents = (value: any) => value.cents as number;
const component = (report: any, id: string) => cents(report.ledger.components.find((entry: any) => entry.id === id).amount);

/** Whether a day (YYYY-MM-DD) falls in an income year written YYYY-YY, which runs from 1 July to 30 June. */
const inIncomeYear = (day: string, year: string) => {
  const first = Number(year.slice(0, 4));
  return day >= `${first}-07-01` && day < `${first + 1}-07-01`;
};

/** Facts with their payment date, if they have one, moved to the same day of an income year. */
function sameDayIn(facts: unknown, year: string): unknown {
  const day = (facts as { paymentDate?: string }).paymentDate;
  if (day === undefined) return facts;
  const first = Number(year.slice(0, 4));
  const monthDay = day.slice(4);
  return { ...(facts as object), paymentDate: `${monthDay >= '-07-01' ? first : first + 1}${monthDay}` };
}

/** The published cases of each calculator in a tax year, from the conformance files copied into test/fixtures. */
export const PUBLISHED_CASES: Record<string, (taxYear: string) => PublishedCase[]> = {
  'au.pay.take-home': (year) =>
    journeysOf(year).pay.map((journey) => ({
      name: journey.name,
      facts: payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed),
      check(report) {
        assert.is(cents(report.netPay), journey.netCents, `${journey.name}: take-home pay`);
        assert.is(cents(report.withholdingsTotal), journey.withheldCents, `${journey.name}: withheld`);
      },
    })),
  'au.pay.withholdings': (year) =>
    journeysOf(year).pay.map((journey) => ({
      name: journey.name,
      facts: payFacts(journey.grossCents, journey.period, journey.taxFreeThresholdClaimed),
      check: (report) => assert.is(cents(report.total), journey.withheldCents, `${journey.name}: withheld`),
    })),
  // A few published payroll cases per edition whose payment date falls in the year: every scale and
  // study-loan edition is reproduced in full by test/server/payroll-service.test.ts.
  'au.payroll.withholding': (year) => {
    const cases = payrollCases().filter((item) => inIncomeYear(item.paymentDate, year));
    return [...new Set(cases.map((item) => item.file))].flatMap((file) =>
      cases
        .filter((item) => item.file === file)
        .slice(0, 3)
        .map((item) => ({
          name: payrollLabel(item),
          facts: payrollFacts(item),
          check(report: any) {
            assert.is(report.scale, item.scale, `${payrollLabel(item)}: scale`);
            assert.is(cents(report.withheld), item.withheldCents, `${payrollLabel(item)}: withheld`);
          },
        })),
    );
  },
  'au.income-tax.annual': (year) =>
    journeysOf(year).annual.map((journey) => ({
      name: journey.name,
      facts: { taxableIncome: money(journey.taxableIncomeCents) },
      check(report) {
        assert.is(component(report, 'income-tax'), journey.incomeTax, `${journey.name}: income tax`);
        assert.is(component(report, 'low-income-tax-offset'), journey.lito, `${journey.name}: low income tax offset`);
        assert.is(component(report, 'medicare-levy'), journey.medicare, `${journey.name}: Medicare levy`);
        assert.is(cents(report.rawLiability), journey.rawLiability, `${journey.name}: raw liability`);
        assert.is(cents(report.liability), journey.liability, `${journey.name}: liability`);
      },
    })),
};

/**
 * Calls every tool the server lists, and holds each answer against the API at `apiUrl` (the same
 * packs and settings): listing and describing each calculator; for each calculator and each tax
 * year served with published figures, every published case (the figures, and the whole answer
 * equal to calculate's); comparing the latest year served against the earliest; searching and
 * reading the docs. Returns the names of the tools called.
 */
export async function everyToolAgainstApi(client: Client, apiUrl: string): Promise<string[]> {
  const called = new Set<string>();
  const call = async (name: string, args: Record<string, unknown>) => {
    called.add(name);
    const answer = await callTool(client, name, args);
    assert.not.ok(answer.isError, `${name} ${JSON.stringify(args)}: ${answer.text}`);
    return answer;
  };

  const listed = await call('list_calculators', {});
  const catalog = await api(apiUrl, '/api/v1/calculators');
  assert.equal(listed.structured, catalog.json);
  const entries = catalog.json.calculators as { calculatorId: string; context: { jurisdiction: string; taxYear: string } }[];
  const ids = [...new Set(entries.map((entry) => entry.calculatorId))];
  for (const id of ids) assert.match(listed.text, id);

  for (const id of ids) {
    const described = await call('describe_calculator', { calculatorId: id });
    assert.equal(described.structured, (await api(apiUrl, `/api/v1/calculators/${id}/schema?help=full`)).json);
    const years = entries.filter((entry) => entry.calculatorId === id).map((entry) => entry.context.taxYear).sort();
    const { jurisdiction } = entries.find((entry) => entry.calculatorId === id)!.context;
    assert.ok(PUBLISHED_CASES[id], `${id} is served, so the MCP tests need its published figures`);
    let checked = 0;
    for (const year of years.filter((served) => CONFORMANCE_YEARS[served])) {
      for (const published of PUBLISHED_CASES[id]!(year)) {
        const answer = await call(toolName('calculate', id), { facts: published.facts, taxYear: year });
        published.check(answer.structured.report);
        const fromApi = await api(apiUrl, `/api/v1/calculators/${id}/calculate`, { facts: published.facts, taxYear: year });
        assert.is(fromApi.status, 200);
        assert.equal(answer.structured, fromApi.json, `${id} ${year} ${published.name}: the MCP answer is the API's`);
        // The readable trace names the calculator, the year, and the sources of its steps.
        assert.match(answer.text, `(${id}), ${jurisdiction} ${year}`);
        const source = JSON.stringify(fromApi.json.report).match(/"reference":"([^"]+)"/)![1]!;
        assert.ok(answer.text.includes(source), `${id}: the trace text cites ${source}`);
        checked++;
      }
    }
    assert.ok(checked > 0, `${id}: a tool call checked against published figures`);

    const [earliest, latest] = [years[0]!, years.at(-1)!];
    const facts = PUBLISHED_CASES[id]!(CONFORMANCE_YEARS[latest] ? latest : Object.keys(CONFORMANCE_YEARS)[0]!)[0]!.facts;
    const compared = await call(toolName('compare_tax_years', id), { facts, taxYear: latest, againstTaxYear: earliest });
    // A payment date is moved to the same day of the other year: the same payment, paid then.
    const [newer, older] = await Promise.all([latest, earliest].map((year) => api(apiUrl, `/api/v1/calculators/${id}/calculate`, { facts: sameDayIn(facts, year), taxYear: year })));
    assert.is(older!.status, 200);
    assert.equal(compared.structured.new.report, newer!.json.report);
    assert.equal(compared.structured.old.report, older!.json.report);
    assert.equal(compared.structured.new.context.taxYear, latest);
    assert.equal(compared.structured.old.context.taxYear, earliest);
    assert.match(compared.text, `${jurisdiction} ${latest} against ${jurisdiction} ${earliest}`);
  }

  const found = await call('search_docs', { term: 'withholding' });
  assert.equal(found.structured, { results: (await api(apiUrl, '/api/v1/docs/search?term=withholding')).json });
  assert.ok(found.structured.results.length > 0);
  const path = found.structured.results[0].path as string;
  const page = await call('read_doc', { path });
  assert.equal(page.structured, (await api(apiUrl, `/api/v1/docs/page?path=${encodeURIComponent(path)}`)).json);
  assert.is(page.text, page.structured.markdown);

  const { tools } = await client.listTools();
  assert.equal([...called].sort(), tools.map((tool) => tool.name).sort(), 'every tool listed was called');
  return [...called];
}
