import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { referencePath } from '../../docs-site/index.ts';
import { createCatalog, formatDiagnostic, loadPacks, readServingDefaults, type Catalog } from '../../engine/index.ts';
import { BootFailure } from '../../server/process/boot.ts';
import { projectDocsSite } from '../helpers/docs.ts';
import { ConfigError, readConfig } from '../../server/process/config.ts';
import { loadServed, loadServingDefaults, resolveServing } from '../../server/process/served-catalog.ts';
import { nextYearFixture, payFacts, PROJECT_ROOT, shippedPacks, SHIPPED_PACKS } from '../helpers/packs.ts';
import { calculate, servedPacks, startTestServer, type TestServer } from './helpers.ts';

const OTHER_YEAR_PACKS = nextYearFixture().root;
const otherYear = () => nextYearFixture().taxYear.id;

// Which tax years a service offers. Every expectation is worked out from the packs on disk, so a new
// year's packs need no edit here: the shipped packs plus a made-up pay pack for another year.
const loaded = loadPacks([SHIPPED_PACKS, OTHER_YEAR_PACKS], { displayRoot: PROJECT_ROOT });
const everything = createCatalog(loaded.packs.flatMap((report) => report.plans));
const allYears = [...new Set(everything.plans.map((plan) => plan.context.taxYear))].sort();
const fileDefaults = loadServingDefaults([SHIPPED_PACKS])!;
const NOBODY_SERVES = '1900-01';

const yearsOf = (catalog: Catalog) => [...new Set(catalog.plans.map((plan) => plan.context.taxYear))].sort();
function expectThrows(run: () => unknown, kind: new (...args: any[]) => Error, ...patterns: RegExp[]): string {
  try {
    run();
  } catch (error) {
    assert.instance(error, kind);
    for (const pattern of patterns) assert.match((error as Error).message, pattern);
    return (error as Error).message;
  }
  assert.unreachable('should have thrown');
  return '';
}

test('the shipped serving file is valid, names only shipped years, and its default is one of them', () => {
  const { defaults, diagnostics } = readServingDefaults([SHIPPED_PACKS], { displayRoot: PROJECT_ROOT });
  assert.equal(diagnostics, []);
  assert.ok(defaults!.taxYears.includes(defaults!.defaultTaxYear));
  const served = resolveServing(everything, defaults, { taxYears: null, defaultTaxYear: null });
  assert.equal(served.taxYears, [...defaults!.taxYears].sort());
  assert.is(served.defaultTaxYear, defaults!.defaultTaxYear);
  assert.equal(yearsOf(served.catalog), served.taxYears);
  assert.ok(allYears.length > served.taxYears.length, 'a year is shipped that plain npm start does not serve');
});

test('TAX_YEARS and DEFAULT_TAX_YEAR choose the years, once the packs are known', () => {
  const all = resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: 'all', CALCULATORS: 'all' }));
  assert.equal(all.taxYears, allYears);
  assert.equal(yearsOf(all.catalog), allYears);
  assert.is(all.defaultTaxYear, fileDefaults.defaultTaxYear);
  assert.is(all.catalog.plans.length, everything.plans.length);

  const listed = resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: ` ${[...allYears].reverse().join(' , ')} `, DEFAULT_TAX_YEAR: otherYear() }));
  assert.equal(listed.taxYears, allYears);
  assert.is(listed.defaultTaxYear, otherYear());

  // Serving one year only, that year is the default.
  const only = resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: otherYear() }));
  assert.equal([only.taxYears, only.defaultTaxYear, yearsOf(only.catalog)], [[otherYear()], otherYear(), [otherYear()]]);
});

test('a year no pack serves, or a default that is not served, is refused naming the setting', () => {
  expectThrows(() => resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: NOBODY_SERVES })), ConfigError, /TAX_YEARS names 1900-01, which no loaded rule pack serves/, new RegExp(allYears.join(', ')));
  expectThrows(() => resolveServing(everything, fileDefaults, readConfig({ DEFAULT_TAX_YEAR: otherYear() })), ConfigError, /DEFAULT_TAX_YEAR must be one of the tax years served/, /TAX_YEARS/);
  expectThrows(() => resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: 'all', DEFAULT_TAX_YEAR: NOBODY_SERVES })), ConfigError, /DEFAULT_TAX_YEAR/);
  // Several years and no default to be had: the operator must say which.
  expectThrows(() => resolveServing(everything, undefined, readConfig({})), ConfigError, /DEFAULT_TAX_YEAR must be set/, /no serving file/);
  const withoutFileDefault = allYears.filter((year) => year !== fileDefaults.defaultTaxYear);
  if (withoutFileDefault.length > 1) {
    expectThrows(() => resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: withoutFileDefault.join(',') })), ConfigError, /DEFAULT_TAX_YEAR must be set/);
  }
});

test('malformed settings are refused by readConfig, without echoing them', () => {
  const message = expectThrows(() => readConfig({ TAX_YEARS: 'next year,,', DEFAULT_TAX_YEAR: 'latest' }), ConfigError, /TAX_YEARS must be all or a comma-separated list/, /DEFAULT_TAX_YEAR must be a tax year written YYYY-YY/);
  assert.not.match(message, /next year|latest/);
  assert.equal([readConfig({}).taxYears, readConfig({}).defaultTaxYear], [null, null]);
});

test('the serving file is checked strictly, every problem located', () => {
  const root = mkdtempSync(join(tmpdir(), 'serving-'));
  try {
    const problemsOf = (text: string) => {
      writeFileSync(join(root, 'serving.yaml'), text);
      return readServingDefaults([root], { displayRoot: root }).diagnostics.map(formatDiagnostic);
    };
    assert.equal(problemsOf('taxYears: [2030-31]\ndefaultTaxYear: 2030-31\n'), []);
    assert.equal(problemsOf('taxYears: [2030-31]\ndefaultTaxYaer: 2030-31\n'), ['serving.yaml:2:1 schema unknown key `defaultTaxYaer`; did you mean `defaultTaxYear`? (allowed: taxYears, defaultTaxYear, calculatorsOnRequest)']);
    assert.match(problemsOf('taxYears: [2030-31, "30-31"]\ndefaultTaxYear: 2030-31\n').join('\n'), /^serving\.yaml:1:21 schema `taxYears\[1\]` is not well formed: A tax year written YYYY-YY/);
    assert.equal(problemsOf('taxYears: [2030-31]\ndefaultTaxYear: 2031-32\n'), ['serving.yaml:2:17 value `defaultTaxYear` must be one of `taxYears` (2030-31): a request without a tax year must get a year that is served']);
    assert.match(problemsOf('taxYears: []\ndefaultTaxYear: 2030-31\n').join('\n'), /serving\.yaml:1:11 schema `taxYears` must NOT have fewer than 1 items/);
    assert.match(problemsOf('taxYears: [2030-31]\ntaxYears: [2030-31]\ndefaultTaxYear: 2030-31\n').join('\n'), /serving\.yaml:2:1 parse duplicate key/);
    // The boot stops on any of them, and on a default year no loaded pack serves, pointing at the line.
    problemsOf('taxYears: [2030-31]\ndefaultTaxYaer: 2030-31\n');
    expectThrows(() => loadServingDefaults([root]), BootFailure, /will not start/, /serving\.yaml:2:1 schema unknown key `defaultTaxYaer`/);
    problemsOf(`taxYears: [${fileDefaults.defaultTaxYear}, ${NOBODY_SERVES}]\ndefaultTaxYear: ${fileDefaults.defaultTaxYear}\n`);
    expectThrows(() => resolveServing(everything, loadServingDefaults([root]), readConfig({})), BootFailure, /serving\.yaml:1:\d+ taxYears lists 1900-01, which no loaded rule pack serves/, /TAX_YEARS/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// A boot reads the packs of the years it serves, and no others: the unserved years' packs, with their
// published samples, are most of what is shipped. A pack whose year it cannot tell is read all the same.
test('a boot reads and checks only the packs of the years it serves', () => {
  const unserved = loaded.packs.filter((report) => report.pack.dir.startsWith(SHIPPED_PACKS) && !fileDefaults.taxYears.includes(report.pack.taxYear.id));
  assert.ok(unserved.length > 0, 'the shipped packs include a year plain npm start does not serve');
  const broken = unserved[0]!.pack;
  const root = mkdtempSync(join(tmpdir(), 'serving-'));
  try {
    cpSync(SHIPPED_PACKS, root, { recursive: true });
    const brokenFacts = join(root, relative(SHIPPED_PACKS, broken.dir), 'facts.yaml');
    appendFileSync(brokenFacts, '\nfacts: [duplicated key]\n');
    const plain = loadServed([root], readConfig({}));
    assert.equal(plain.taxYears, [...fileDefaults.taxYears].sort());
    assert.equal(yearsOf(plain.catalog), plain.taxYears);
    const asked = { TAX_YEARS: broken.taxYear.id, DEFAULT_TAX_YEAR: broken.taxYear.id };
    expectThrows(() => loadServed([root], readConfig(asked)), BootFailure, /facts\.yaml:\d+:\d+ parse duplicate key/);
    expectThrows(() => loadServed([root], readConfig({ TAX_YEARS: 'all', DEFAULT_TAX_YEAR: fileDefaults.defaultTaxYear })), BootFailure, /facts\.yaml:\d+:\d+ parse duplicate key/);

    // Unreadable as YAML, the pack.yaml of an unserved year cannot say its year: it is read, and stops the boot.
    cpSync(SHIPPED_PACKS, root, { recursive: true });
    appendFileSync(join(root, relative(SHIPPED_PACKS, broken.dir), 'pack.yaml'), '\ntaxYear: [\n');
    expectThrows(() => loadServed([root], readConfig({})), BootFailure, /pack\.yaml:\d+:\d+ parse/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  // A year no pack serves is named with every year the packs do serve, not only the years asked for.
  const shippedYears = [...new Set(shippedPacks().catalog.plans.map((plan) => plan.context.taxYear))].sort();
  expectThrows(() => loadServed([SHIPPED_PACKS], readConfig({ TAX_YEARS: NOBODY_SERVES })), ConfigError, new RegExp(`the loaded rule packs serve ${shippedYears.join(', ')}`));
});

test('CALCULATORS chooses the calculators; by default, every one but those the serving file keeps for when asked', () => {
  const ids = (catalog: Catalog) => [...new Set(catalog.plans.map((plan) => plan.def.id))].sort();
  const every = ids(everything);
  assert.ok(fileDefaults.calculatorsOnRequest.length > 0, 'the shipped serving file keeps a calculator for when it is asked for');
  const plain = resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: 'all' }));
  assert.equal(ids(plain.catalog), every.filter((id) => !fileDefaults.calculatorsOnRequest.includes(id)));
  assert.equal(ids(resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: 'all', CALCULATORS: 'all' })).catalog), every);
  const asked = [...fileDefaults.calculatorsOnRequest, every.find((id) => !fileDefaults.calculatorsOnRequest.includes(id))!];
  assert.equal(ids(resolveServing(everything, fileDefaults, readConfig({ TAX_YEARS: 'all', CALCULATORS: ` ${asked.join(' , ')} ` })).catalog), [...asked].sort());
  // Without a serving file, every calculator is served.
  assert.equal(ids(resolveServing(everything, undefined, readConfig({ TAX_YEARS: 'all', DEFAULT_TAX_YEAR: otherYear() })).catalog), every);
});

test('a calculator no pack defines is refused at boot, naming the setting or the line of the serving file, never echoing a malformed value', () => {
  const message = expectThrows(() => readConfig({ CALCULATORS: 'au.pay.take-home,Take Home!' }), ConfigError, /CALCULATORS must be all or a comma-separated list of calculator ids/);
  assert.not.match(message, /Take Home!/);
  assert.is(readConfig({}).calculators, null);
  expectThrows(() => resolveServing(everything, fileDefaults, readConfig({ CALCULATORS: 'au.pay.retired' })), ConfigError, /CALCULATORS names au\.pay\.retired, which no loaded rule pack defines/, /au\.pay\.take-home/);
  const root = mkdtempSync(join(tmpdir(), 'serving-calculators-'));
  try {
    writeFileSync(join(root, 'serving.yaml'), `taxYears: [${fileDefaults.defaultTaxYear}]\ndefaultTaxYear: ${fileDefaults.defaultTaxYear}\ncalculatorsOnRequest: [au.pay.retired]\n`);
    expectThrows(() => resolveServing(everything, loadServingDefaults([root]), readConfig({})), BootFailure, /serving\.yaml:3:\d+ calculatorsOnRequest lists au\.pay\.retired, which no loaded rule pack defines/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

// One service offering every year the packs serve.
let server: TestServer;
const served = servedPacks({ extraPaths: [OTHER_YEAR_PACKS], taxYears: 'all', calculators: 'all' });
test.before(async () => {
  server = await startTestServer({ deps: { catalog: served.catalog, defaultTaxYear: served.defaultTaxYear } });
});
test.after(() => server.close());
const get = async (path: string): Promise<any> => {
  const response = await fetch(`${server.url}${path}`);
  assert.is(response.status, 200, path);
  return response.json();
};

test('/tax-years lists every year served, and /calculators one entry per calculator and year', async () => {
  const expectedYears = [...new Set(everything.plans.map((plan) => `${plan.context.jurisdiction} ${plan.context.taxYear}`))].sort();
  assert.equal((await get('/api/v1/tax-years')).taxYears.map((entry: any) => `${entry.jurisdiction} ${entry.taxYear}`).sort(), expectedYears);
  const entries = (await get('/api/v1/calculators')).calculators.map((entry: any) => `${entry.calculatorId} ${entry.context.taxYear}`);
  assert.equal([...entries].sort(), everything.plans.map((plan) => `${plan.def.id} ${plan.context.taxYear}`).sort());
  assert.is(new Set(entries).size, entries.length);
  for (const year of allYears) {
    assert.equal((await get(`/api/v1/calculators?taxYear=${year}`)).calculators.map((entry: any) => entry.context.taxYear), everything.plans.filter((plan) => plan.context.taxYear === year).map(() => year));
  }
});

test('detail, schema, graph and calculate select the year asked for, and the default year without one', async () => {
  for (const plan of everything.plans) {
    const { id } = plan.def;
    const year = plan.context.taxYear;
    assert.equal((await get(`/api/v1/calculators/${id}?taxYear=${year}`)).context.taxYear, year);
    assert.equal((await get(`/api/v1/calculators/${id}/schema?taxYear=${year}`)).calculator.context.taxYear, year);
    const graph = await get(`/api/v1/calculators/${id}/graph?jurisdiction=AU&taxYear=${year}`);
    assert.equal([graph.calculator.context.taxYear, graph.rules.map((rule: any) => rule.parameters.map((parameter: any) => parameter.effectivePeriod))], [year, plan.steps.map((step) => step.rule.parameters.map((parameterId) => graphPeriod(plan, parameterId)))]);
  }
  const facts = payFacts(346200, 'fortnightly', true);
  for (const plan of everything.withId('au.pay.take-home')) {
    const body: any = await (await calculate(server.url, 'au.pay.take-home', { facts, taxYear: plan.context.taxYear })).json();
    assert.equal([body.calculator.context.taxYear, body.report.rulePackVersion], [plan.context.taxYear, plan.rulePackVersion]);
  }
  const unnamed: any = await (await calculate(server.url, 'au.pay.take-home', { facts, taxYear: null })).json();
  assert.is(unnamed.calculator.context.taxYear, served.defaultTaxYear);
  assert.is((await get('/api/v1/calculators/au.pay.take-home/schema')).calculator.context.taxYear, served.defaultTaxYear);
});

/** The period of the value in force on the first day of the plan's year (for most parameters, all year). */
function graphPeriod(plan: Catalog['plans'][number], parameterId: string) {
  const parameter = plan.pack.parameters.find((candidate) => candidate.id === parameterId)!;
  const inForce = parameter.values.find((value) => value.effectivePeriod.from <= plan.pack.taxYear.from && (value.effectivePeriod.toExclusive ?? '9999') > plan.pack.taxYear.from)!;
  return inForce.effectivePeriod;
}

test('another default year is honoured by every calculator route', async () => {
  const other = servedPacks({ extraPaths: [OTHER_YEAR_PACKS], taxYears: 'all', defaultTaxYear: otherYear() });
  const service = await startTestServer({ deps: { catalog: other.catalog, defaultTaxYear: other.defaultTaxYear } });
  try {
    const body: any = await (await calculate(service.url, 'au.pay.take-home', { facts: payFacts(346200, 'fortnightly', true) })).json();
    assert.equal(body.report.rulePackVersion, other.catalog.find('au.pay.take-home', { taxYear: otherYear() })!.rulePackVersion);
    const entry: any = await (await fetch(`${service.url}/api/v1/calculators/au.pay.take-home`)).json();
    assert.is(entry.context.taxYear, otherYear());
    // A calculator the default year lacks is not quietly answered for another year.
    const missing = everything.plans.find((plan) => !everything.find(plan.def.id, { taxYear: otherYear() }));
    if (missing) {
      const response = await fetch(`${service.url}/api/v1/calculators/${missing.def.id}`);
      assert.equal([response.status, ((await response.json()) as any).error._tag], [400, 'UnsupportedCalculatorContextError']);
    }
  } finally {
    await service.close();
  }
});

test('a year not served is UnsupportedCalculatorContextError, echoing only what was asked', async () => {
  const response = await calculate(server.url, 'au.pay.take-home', { facts: payFacts(346200, 'fortnightly', true), taxYear: NOBODY_SERVES });
  const body: any = await response.json();
  assert.equal([response.status, body.error._tag, body.error.context], [400, 'UnsupportedCalculatorContextError', { taxYear: NOBODY_SERVES }]);
  const detail: any = await (await fetch(`${server.url}/api/v1/calculators/au.pay.take-home/graph?taxYear=${NOBODY_SERVES}`)).json();
  assert.equal(detail.error.context, { taxYear: NOBODY_SERVES });
  // A year shipped but not chosen is not served either.
  const plain = await startTestServer();
  try {
    const unchosen = allYears.find((year) => !fileDefaults.taxYears.includes(year))!;
    const refused: any = await (await fetch(`${plain.url}/api/v1/calculators/au.pay.take-home?taxYear=${unchosen}`)).json();
    assert.is(refused.error._tag, 'UnsupportedCalculatorContextError');
    assert.equal((await (await fetch(`${plain.url}/api/v1/tax-years?taxYear=${unchosen}`)).json()) as any, { taxYears: [] });
  } finally {
    await plain.close();
  }
});

test('the OpenAPI document names every served year, and no other, in its enums, text and examples', async () => {
  const document = await get('/api/docs/openapi.json');
  const schemas = document.components.schemas;
  assert.equal(schemas.Context.properties.taxYear.enum, allYears);
  assert.equal(schemas['au.pay.take-home.RunRequest'].properties.taxYear.enum, [...allYears, null]);
  const text = JSON.stringify(document);
  assert.equal([...new Set(text.match(/\b\d{4}-\d{2}\b(?!-)/g))].sort(), allYears);
  for (const year of allYears) assert.ok(document.info.description.includes(year), `info names ${year}`);
  const parameter = document.paths['/api/v1/calculators/{calculatorId}'].get.parameters.find((candidate: any) => candidate.name === 'taxYear');
  assert.equal(parameter.schema.examples, [served.defaultTaxYear]);
  for (const year of allYears) assert.ok(parameter.description.includes(year));
  assert.match(parameter.description, `without it, ${served.defaultTaxYear}`);
  assert.match(schemas['au.pay.take-home.RunRequest'].properties.taxYear.description, served.defaultTaxYear);
});

test('unfiltered facts and rules lists cover every served year', async () => {
  const facts = (await get('/api/v1/facts')).facts;
  const rules = (await get('/api/v1/rules')).rules;
  for (const year of allYears) {
    for (const fact of (await get(`/api/v1/facts?taxYear=${year}`)).facts) assert.ok(facts.some((candidate: unknown) => JSON.stringify(candidate) === JSON.stringify(fact)), `${year} fact ${fact.id}`);
    for (const rule of (await get(`/api/v1/rules?taxYear=${year}`)).rules) assert.ok(rules.some((candidate: unknown) => JSON.stringify(candidate) === JSON.stringify(rule)), `${year} rule ${rule.id}`);
  }
  // Each descriptor still once.
  assert.is(new Set(rules.map((rule: unknown) => JSON.stringify(rule))).size, rules.length);
});

test('the generated reference docs cover every served year', async () => {
  const docs = await projectDocsSite(served.catalog);
  for (const plan of everything.plans) assert.ok(docs.page(referencePath(plan)), referencePath(plan));
  const plain = await projectDocsSite(servedPacks().catalog);
  for (const plan of everything.plans) {
    const servedPlainly = fileDefaults.taxYears.includes(plan.context.taxYear) && !fileDefaults.calculatorsOnRequest.includes(plan.def.id);
    assert.is(Boolean(plain.page(referencePath(plan))), servedPlainly, referencePath(plan));
  }
});

test.run();
