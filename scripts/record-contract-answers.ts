import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PROJECT_ROOT, shippedPacks } from '../test/helpers/packs.ts';
import { startService, stopService } from '../test/helpers/service-process.ts';
import { ANSWERING_FOLDERS, BASELINE_FILE, digestAnswers, SETTINGS, type Baseline, type RecordedRequest, type SettingName } from '../test/server/contract-answers.ts';

// Records test/fixtures/contract/answers-baseline.json: `npx tsx scripts/record-contract-answers.ts`.
// Run it only on a commit whose engine/, server/ and rulepacks/ are committed and are the code whose
// answers the baseline is to hold: it refuses uncommitted changes there, and names the commit and
// the folders' git trees in the file, which contract-answers.test.ts checks against the history.

const CONTRACT = JSON.parse(readFileSync(fileURLToPath(new URL('../test/fixtures/contract/enumerations.json', import.meta.url)), 'utf8')) as {
  taxYear: string[];
  calculatorId: string[];
  helpMode: string[];
  payPeriod: string[];
};
const PAY = ['au.pay.take-home', 'au.pay.withholdings'];
const ANNUAL = 'au.income-tax.annual';
/** A calculator id that is not the contract's: what plain `npm start` answers for it must not change either. */
const NOT_SERVED_BY_DEFAULT = 'au.payroll.withholding';

const money = (cents: unknown) => ({ _tag: 'Money', cents, currency: 'AUD' });
const payFacts = (cents: unknown, period: string, taxFreeThresholdClaimed: boolean) => ({ grossPay: { _tag: 'GrossPay', amount: money(cents), period }, taxFreeThresholdClaimed });

/** Every request the baseline holds: which settings each is compared under (catalog-wide lists only without CALCULATORS). */
function requestsToRecord(): { request: Omit<RecordedRequest, 'answers'>; settings: SettingName[] }[] {
  const both: SettingName[] = ['plain', 'all'];
  const plainOnly: SettingName[] = ['plain'];
  const allOnly: SettingName[] = ['all'];
  const out: { request: Omit<RecordedRequest, 'answers'>; settings: SettingName[] }[] = [];
  const seen = new Set<string>();
  const add = (request: Omit<RecordedRequest, 'answers'>, settings: SettingName[]) => {
    const key = JSON.stringify(request);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ request, settings });
  };
  const post = (calculatorId: string, body: unknown, query = '', settings = both) =>
    add({ method: 'POST', path: `/api/v1/calculators/${calculatorId}/calculate${query}`, ...(typeof body === 'string' ? { rawBody: body } : { body }) }, settings);
  const get = (path: string, settings = both) => add({ method: 'GET', path }, settings);

  const { loaded } = shippedPacks();
  const years = [...new Set(loaded.packs.map((report) => report.pack.taxYear.id))].sort();
  const yearChoices: (string | undefined)[] = [undefined, ...years];
  const withYear = (facts: unknown, taxYear: string | undefined) => (taxYear === undefined ? { facts } : { facts, taxYear });
  // Plain `npm start` refuses every other year alike: a few of its refusals are enough.
  const comparedUnder = (taxYear: string | undefined, refusalSample = false) => (taxYear === undefined || CONTRACT.taxYear.includes(taxYear) || refusalSample ? both : allOnly);

  // Every worked example of the contract's calculators in its pack's year, and the contract year's also without a year.
  for (const report of loaded.packs) {
    const year = report.pack.taxYear.id;
    report.pack.examples.forEach((example, at) => {
      if (!CONTRACT.calculatorId.includes(example.calculator)) return;
      post(example.calculator, withYear(example.facts, year), '', comparedUnder(year, at === 0));
      if (CONTRACT.taxYear.includes(year)) post(example.calculator, withYear(example.facts, undefined));
    });
  }

  // A grid of payments: row edges of both scales, cents that the monthly conversion treats apart, and extremes.
  const grossCents = [0, 1, 99, 100, 14_999, 15_000, 36_099, 36_100, 36_199, 49_999, 50_000, 62_500, 72_100, 86_500, 93_200, 100_000, 128_200, 165_400, 224_600, 259_600, 330_300, 365_300, 500_033, 1_582_967, 10_000_000, 999_999_999];
  for (const calculatorId of PAY) {
    for (const period of CONTRACT.payPeriod) {
      for (const claimed of [true, false]) {
        for (const cents of grossCents) {
          for (const taxYear of yearChoices) post(calculatorId, withYear(payFacts(cents, period, claimed), taxYear), '', comparedUnder(taxYear, cents === 0));
        }
      }
    }
  }
  const taxableCents = [0, 1, 1_820_000, 1_820_100, 2_700_000, 3_300_000, 3_700_000, 4_500_000, 4_500_100, 6_666_700, 9_000_000, 13_500_000, 13_500_100, 19_000_000, 19_000_100, 25_000_000, 100_000_000, 999_999_999];
  for (const cents of taxableCents) {
    for (const taxYear of yearChoices) post(ANNUAL, withYear({ taxableIncome: money(cents) }, taxYear), '', comparedUnder(taxYear, cents === 0));
  }

  // Help modes and bad requests: the errors' bodies are answers too.
  const goodFacts: Record<string, unknown> = { [ANNUAL]: { taxableIncome: money(9_000_000) } };
  for (const calculatorId of PAY) goodFacts[calculatorId] = payFacts(165_400, 'weekly', true);
  for (const calculatorId of CONTRACT.calculatorId) {
    const facts = goodFacts[calculatorId]!;
    for (const mode of [...CONTRACT.helpMode, 'bogus']) {
      post(calculatorId, { facts }, `?help=${mode}`);
      post(calculatorId, { facts: {} }, `?help=${mode}`);
    }
    const bad: unknown[] = [
      {},
      { facts: null },
      { facts: {} },
      { facts: { ...(facts as object), extra: true } },
      { facts, taxYear: '2030-31' },
      { facts, taxYear: null },
      { facts, jurisdiction: 'AU' },
      { facts, jurisdiction: 'NZ' },
      { facts, jurisdiction: null, taxYear: null },
      { facts, unknownField: 1 },
      { facts: payFacts(-1, 'weekly', true) },
      { facts: payFacts(1.5, 'weekly', true) },
      { facts: payFacts('100', 'weekly', true) },
      { facts: payFacts(100, 'yearly', true) },
      { facts: { grossPay: { _tag: 'GrossPay', amount: { _tag: 'Money', cents: 100, currency: 'USD' }, period: 'weekly' }, taxFreeThresholdClaimed: true } },
      { facts: { grossPay: payFacts(100, 'weekly', true).grossPay, taxFreeThresholdClaimed: 'yes' } },
      { facts: { taxableIncome: money(-5) } },
      { facts: { taxableIncome: { cents: 100 } } },
      '{"facts":',
      '[]',
      'null',
    ];
    for (const body of bad) post(calculatorId, body);
    for (const mode of ['', ...CONTRACT.helpMode.map((help) => `?help=${help}`)]) {
      get(`/api/v1/calculators/${calculatorId}${mode}`);
      get(`/api/v1/calculators/${calculatorId}/schema${mode}`);
    }
    for (const taxYear of years) {
      get(`/api/v1/calculators/${calculatorId}?taxYear=${taxYear}`);
      get(`/api/v1/calculators/${calculatorId}/schema?taxYear=${taxYear}`);
      get(`/api/v1/calculators/${calculatorId}/graph?taxYear=${taxYear}`);
      get(`/api/v1/facts?calculator=${calculatorId}&taxYear=${taxYear}`);
      get(`/api/v1/rules?calculator=${calculatorId}&taxYear=${taxYear}`);
    }
    get(`/api/v1/calculators/${calculatorId}/graph`);
    get(`/api/v1/facts?calculator=${calculatorId}`);
    get(`/api/v1/rules?calculator=${calculatorId}`);
  }

  // What plain `npm start` serves beside the calculators, and what it says of a calculator it does not serve.
  for (const path of ['/api/v1/calculators', '/api/v1/tax-years', '/api/v1/jurisdictions', '/api/v1/facts', '/api/v1/rules', ...years.map((year) => `/api/v1/calculators?taxYear=${year}`)]) get(path, plainOnly);
  get(`/api/v1/calculators/${NOT_SERVED_BY_DEFAULT}`, plainOnly);
  get(`/api/v1/calculators/${NOT_SERVED_BY_DEFAULT}/schema`, plainOnly);
  post(NOT_SERVED_BY_DEFAULT, { facts: {} }, '', plainOnly);
  return out;
}

const git = (...args: string[]) => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();

async function record(): Promise<void> {
  const dirty = git('status', '--porcelain', '--', ...ANSWERING_FOLDERS);
  if (dirty !== '') throw new Error(`commit or stash the changes to ${ANSWERING_FOLDERS.join(', ')} first: the baseline names the commit it was recorded from\n${dirty}`);
  const commit = git('rev-parse', 'HEAD');
  const trees = Object.fromEntries(ANSWERING_FOLDERS.map((folder) => [folder, git('rev-parse', `${commit}:${folder}`)]));
  const planned = requestsToRecord();
  const requests: RecordedRequest[] = planned.map(({ request }) => ({ ...request, answers: {} }));
  for (const setting of Object.keys(SETTINGS) as SettingName[]) {
    const service = await startService({ ...SETTINGS[setting], RATE_LIMIT_MAX: '0', CALC_CONCURRENCY: '2' });
    try {
      const chosen = planned.flatMap((item, at) => (item.settings.includes(setting) ? [at] : []));
      const digests = await digestAnswers(service.url, chosen.map((at) => requests[at]!));
      chosen.forEach((at, index) => (requests[at]!.answers[setting] = digests[index]!));
    } finally {
      await stopService(service);
    }
  }
  const baseline: Baseline = {
    description:
      "What the contract's calculators answered before au.payroll.withholding and the CALCULATORS setting existed: for each request, the status and a SHA-256 of the content type and body of the answer (first 16 hex digits), from `npm start` with no settings (plain) and with TAX_YEARS=all CALCULATORS=all (all). Requests: every worked example of the contract's calculators in the shipped packs, a grid of payments and incomes in every shipped year and in none, every help mode, malformed and invalid requests, and each calculator's metadata routes; plain also the catalog-wide lists and a calculator it does not serve. recordedFrom names the commit whose service answered, and the git trees of the folders that make the answers.",
    recordedFrom: { commit, trees, command: 'npx tsx scripts/record-contract-answers.ts' },
    settings: SETTINGS,
    requests,
  };
  // One request a line, so that a re-recording's diff shows which answers moved.
  const lines = requests.map((request) => `    ${JSON.stringify(request)}`).join(',\n');
  const head = JSON.stringify({ ...baseline, requests: [] }, null, 2).replace(/"requests": \[\]\n\}$/, '');
  writeFileSync(BASELINE_FILE, `${head}"requests": [\n${lines}\n  ]\n}\n`);
  console.log(`recorded ${requests.length} requests from ${commit} into ${BASELINE_FILE}`);
}

record().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
