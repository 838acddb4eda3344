// Lane: services (npm run test:fast leaves this file out).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { testOr } from '../helpers/skip.ts';
import { PROJECT_ROOT, shippedPacks } from '../helpers/packs.ts';
import { startService, stopService, type ServiceProcess } from '../helpers/service-process.ts';
import { ANSWERING_FOLDERS, BASELINE_FILE, CONTRACT_CALCULATORS, BASELINE_PATH_IN_REPOSITORY, digestAnswers, readBaseline, SETTINGS, type RecordedRequest, type SettingName } from './contract-answers.ts';

// The contract's calculators answer byte for byte as they did before the service learned to serve
// more calculators, with no settings and with TAX_YEARS=all CALCULATORS=all: each recorded request is
// sent to the service `npm start` runs and its answer's digest compared with the recorded one.
// Whether the recording is what it claims to be (answers of the code it names) is checked against the
// repository's history. A deliberate change to the contract's answers is recorded again with
// `npx tsx scripts/record-contract-answers.ts` once the change is committed, and the new baseline
// committed on its own.

const baseline = readBaseline();
const git = (...args: string[]) => spawnSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' });

/** Each request the service answered otherwise than the recorded service, described for the failure message. */
async function differences(service: ServiceProcess, setting: SettingName): Promise<string[]> {
  const compared = baseline.requests.filter((request) => request.answers[setting] !== undefined);
  const digests = await digestAnswers(service.url, compared);
  return compared.flatMap((request, at) => (digests[at] === request.answers[setting] ? [] : [`${describe(request)}: ${digests[at]}, recorded ${request.answers[setting]}`]));
}

/** Runs a test against the service `npm start` runs with one of the baseline's settings. */
async function withService<T>(setting: SettingName, use: (service: ServiceProcess) => Promise<T>): Promise<T> {
  const service = await startService({ ...SETTINGS[setting], RATE_LIMIT_MAX: '0', CALC_CONCURRENCY: '2' });
  try {
    return await use(service);
  } finally {
    await stopService(service);
  }
}

function describe(request: RecordedRequest): string {
  const body = request.rawBody ?? (request.body === undefined ? '' : ` ${JSON.stringify(request.body)}`);
  return `${request.method} ${request.path}${body.slice(0, 200)}`;
}

test('the baseline compares hundreds of answers under each setting, successes and refusals alike', () => {
  for (const setting of Object.keys(SETTINGS) as SettingName[]) {
    const statuses = baseline.requests.flatMap((request) => (request.answers[setting] ? [request.answers[setting]!.split(' ')[0]] : []));
    assert.ok(statuses.filter((status) => status === '200').length > 500, `${setting}: answers`);
    assert.ok(statuses.filter((status) => status === '400').length > 50, `${setting}: refusals`);
  }
});

test("the baseline holds every worked example of the contract's calculators, in its pack's year, under TAX_YEARS=all", () => {
  const contract = new Set(CONTRACT_CALCULATORS);
  const recorded = new Set(baseline.requests.filter((request) => request.answers.all !== undefined).map((request) => `${request.path} ${JSON.stringify(request.body)}`));
  const missing = shippedPacks()
    .loaded.packs.flatMap((report) => report.pack.examples.filter((example) => contract.has(example.calculator)).map((example) => ({ example, taxYear: report.pack.taxYear.id })))
    .filter(({ example, taxYear }) => !recorded.has(`/api/v1/calculators/${example.calculator}/calculate ${JSON.stringify({ facts: example.facts, taxYear })}`))
    .map(({ example, taxYear }) => `${taxYear} ${example.name}`);
  assert.equal(missing, []);
});

const recordingInHistory = git('cat-file', '-e', `${baseline.recordedFrom.commit}^{commit}`).status === 0;
const withRecordingHistory = testOr(test, recordingInHistory ? undefined : `the recording's history: this clone has no commit ${baseline.recordedFrom.commit} (a shallow clone or an export)`);

withRecordingHistory('the baseline was recorded by the code it names, and committed with that code unchanged', () => {
  const { commit, trees } = baseline.recordedFrom;
  for (const folder of ANSWERING_FOLDERS) assert.is(git('rev-parse', `${commit}:${folder}`).stdout.trim(), trees[folder], `${folder} at ${commit}`);
  // The commit that last wrote the baseline holds the same engine, server and packs as the recording:
  // answers recorded from any other code could not be committed without this test failing there.
  const lastWritten = git('log', '-1', '--format=%H', '--', BASELINE_PATH_IN_REPOSITORY).stdout.trim();
  assert.ok(lastWritten, 'the baseline is committed');
  for (const folder of ANSWERING_FOLDERS) assert.is(git('rev-parse', `${lastWritten}:${folder}`).stdout.trim(), trees[folder], `${folder} where the baseline was last written (${lastWritten})`);
  assert.is(readFileSync(BASELINE_FILE, 'utf8'), git('show', `HEAD:${BASELINE_PATH_IN_REPOSITORY}`).stdout, 'the baseline is as committed');
});

test('plain npm start: every recorded answer of the contract calculators is unchanged, byte for byte; and the comparison can fail', async () => {
  await withService('plain', async (service) => {
    assert.equal(await differences(service, 'plain'), []);
    // One cent more in a recorded request gives another digest.
    const request = baseline.requests.find((candidate) => candidate.path.endsWith('/au.pay.take-home/calculate') && candidate.answers.plain?.startsWith('200 ') && (candidate.body as any)?.facts?.grossPay?.amount?.cents > 0)!;
    const moved = structuredClone(request);
    (moved.body as any).facts.grossPay.amount.cents += 1;
    const [same, other] = await digestAnswers(service.url, [request, moved]);
    assert.is(same, request.answers.plain);
    assert.is.not(other, request.answers.plain);
  });
});

test('TAX_YEARS=all CALCULATORS=all: every recorded answer of the contract calculators is unchanged, byte for byte', async () => {
  await withService('all', async (service) => assert.equal(await differences(service, 'all'), []));
});

test.run();
