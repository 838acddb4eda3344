import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { carriedValues, formatDiagnostic, loadPacks, type PackDef } from '../../engine/index.ts';
import { FIXTURE_PACKS, PROJECT_ROOT, shippedPacks } from '../helpers/packs.ts';

// Values a new year's pack carries unchanged from the previous pack of its family are listed until
// a reviewer confirms them for the pack's own year. The packs here are copies of the valid fixture
// pack (a made-up levy) under other versions and years, each with its own levy-rate values.

const VALID = join(FIXTURE_PACKS, 'valid', 'fixture-pay', '1.0.0');
const PARAMETER_HEAD = 'id: levy-rate\ntitle: Levy rate\nunit: ratio\nvalues:\n';

interface Version {
  version: string;
  year: string;
  /** The YAML of the levy-rate values, each line indented as a list item under `values:`. */
  values: string;
}

const startOf = (year: string) => `20${year.slice(2, 4)}-07-01`;
const endOf = (year: string) => `20${year.slice(5, 7)}-07-01`;

/** A family folder of fixture-pay packs in a temporary root; returns the root. */
function family(versions: Version[]): string {
  const root = mkdtempSync(join(tmpdir(), 'carried-'));
  for (const { version, year, values } of versions) {
    const dir = join(root, 'fixture-pay', version);
    cpSync(VALID, dir, { recursive: true });
    const pack = readFileSync(join(dir, 'pack.yaml'), 'utf8')
      .replace('version: 1.0.0', `version: ${version}`)
      .replace(/taxYear:\n {2}id: \S+\n {2}from: \S+\n {2}toExclusive: \S+/, `taxYear:\n  id: ${year}\n  from: ${startOf(year)}\n  toExclusive: ${endOf(year)}`);
    writeFileSync(join(dir, 'pack.yaml'), pack);
    writeFileSync(join(dir, 'parameters', 'levy-rate.yaml'), PARAMETER_HEAD + values);
    // The worked example's figure is for the fixture's own rate; these tests are about the values.
    rmSync(join(dir, 'examples'), { recursive: true });
  }
  return root;
}

/** Loads every pack of the root (they must load cleanly) and gives the carried values of one version. */
function carriedIn(root: string, version: string): { previous?: string; notices: string[] } {
  const loaded = loadPacks([root], { displayRoot: root });
  assert.equal(loaded.diagnostics, []);
  const pack: PackDef = loaded.packs.find((report) => report.pack.version === version)!.pack;
  const result = carriedValues(pack, { displayRoot: root });
  return { ...(result.previous ? { previous: `${result.previous.id}/${result.previous.version} ${result.previous.taxYear}` } : {}), notices: result.notices.map(formatDiagnostic) };
}

const LAST_YEAR = { version: '1.0.0', year: '2025-26', values: '  - effectivePeriod: { from: 2024-07-01, toExclusive: null }\n    source: fixture-publication\n    value: "0.10"\n' };
const copied = (values: string): Version => ({ version: '2.0.0', year: '2026-27', values });
const carriedLine = '  - effectivePeriod: { from: 2024-07-01, toExclusive: null }\n    source: fixture-publication\n    value: "0.10"\n';

test('a copy for the next year lists its value carried unchanged, at the value, with what to do', () => {
  const root = family([LAST_YEAR, copied(carriedLine)]);
  try {
    assert.equal(carriedIn(root, '2.0.0'), {
      previous: 'fixture-pay/1.0.0 2025-26',
      notices: [
        'fixture-pay/2.0.0/parameters/levy-rate.yaml:5:5 carried-value parameter `levy-rate`: the value from 2024-07-01 without end is carried into 2026-27 unchanged from fixture-pay/1.0.0 (2025-26). ' +
          'Update it (close it at 2026-07-01 and add the new value with its source) or, once reviewed, confirm it with `carriedOver: { taxYear: 2026-27, reviewedBy: <who>, reason: <why it still applies> }`',
      ],
    });
    assert.equal(carriedIn(root, '1.0.0'), { notices: [] }, 'the first pack of a family has nothing to carry from');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("a confirmation for the pack's own year silences it; one copied from the year before does not", () => {
  const confirm = (year: string) => `${carriedLine}    carriedOver:\n      taxYear: ${year}\n      reviewedBy: Levy analyst\n      reason: The levy notice sets the rate until revoked.\n`;
  const root = family([LAST_YEAR, copied(confirm('2026-27'))]);
  try {
    assert.equal(carriedIn(root, '2.0.0').notices, []);
    writeFileSync(join(root, 'fixture-pay', '2.0.0', 'parameters', 'levy-rate.yaml'), PARAMETER_HEAD + confirm('2025-26'));
    const [notice] = carriedIn(root, '2.0.0').notices;
    assert.ok(notice?.includes('unchanged from fixture-pay/1.0.0 (2025-26). Its carriedOver confirms 2025-26, not 2026-27. Update it'), notice);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('an updated value is not listed; the same figure written anew from the new year (0.1 for "0.10") is', () => {
  const closed = '  - effectivePeriod: { from: 2024-07-01, toExclusive: 2026-07-01 }\n    source: fixture-publication\n    value: "0.10"\n';
  const from = (value: string) => `${closed}  - effectivePeriod: { from: 2026-07-01, toExclusive: null }\n    source: fixture-publication\n    value: ${value}\n`;
  const root = family([LAST_YEAR, copied(from('"0.12"'))]);
  try {
    assert.equal(carriedIn(root, '2.0.0').notices, []);
    writeFileSync(join(root, 'fixture-pay', '2.0.0', 'parameters', 'levy-rate.yaml'), PARAMETER_HEAD + from('0.1'));
    const notices = carriedIn(root, '2.0.0').notices;
    assert.is(notices.length, 1);
    assert.ok(notices[0]!.startsWith('fixture-pay/2.0.0/parameters/levy-rate.yaml:8:5 carried-value parameter `levy-rate`: the value from 2026-07-01 without end is carried into 2026-27'), notices[0]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a confirmation for the year on a value that is not carried is listed too', () => {
  const confirmation = '    carriedOver: { taxYear: 2026-27, reviewedBy: Levy analyst, reason: Unchanged. }\n';
  const closed = `  - effectivePeriod: { from: 2024-07-01, toExclusive: 2026-07-01 }\n    source: fixture-publication\n    value: "0.10"\n${confirmation}`;
  const changed = `  - effectivePeriod: { from: 2026-07-01, toExclusive: null }\n    source: fixture-publication\n    value: "0.12"\n${confirmation}`;
  const root = family([LAST_YEAR, copied(closed + changed)]);
  try {
    const notices = carriedIn(root, '2.0.0').notices;
    assert.equal(
      notices.map((notice) => notice.replace(/^.*?carried-value parameter `levy-rate`: /, '')),
      [
        'the value from 2024-07-01 until 2026-07-01 is confirmed as carried into 2026-27 (carriedOver), but it is not the value in force from 2026-07-01. Remove its carriedOver, or move it to the value carried over',
        'the value from 2026-07-01 without end is confirmed as carried into 2026-27 (carriedOver), but its figures are not those fixture-pay/1.0.0 (2025-26) used. Remove its carriedOver, or move it to the value carried over',
      ],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the previous pack is the one with a lower version and the latest earlier year: never a later year, whatever the versions', () => {
  const value = (from: string) => `  - effectivePeriod: { from: ${from}, toExclusive: null }\n    source: fixture-publication\n    value: "0.10"\n`;
  const root = family([
    { version: '1.0.0', year: '2025-26', values: value('2024-07-01') },
    { version: '2.0.0', year: '2026-27', values: value('2024-07-01') },
    // Added after 2026-27 for an earlier year: its figures were not copied from a year before it.
    { version: '3.0.0', year: '2024-25', values: `${value('2024-07-01')}    carriedOver: { taxYear: 2024-25, reviewedBy: Levy analyst, reason: Unchanged. }\n` },
    { version: '4.0.0', year: '2027-28', values: value('2024-07-01') },
  ]);
  try {
    assert.is(carriedIn(root, '2.0.0').previous, 'fixture-pay/1.0.0 2025-26');
    assert.is(carriedIn(root, '4.0.0').previous, 'fixture-pay/2.0.0 2026-27');
    const earlier = carriedIn(root, '3.0.0');
    assert.is(earlier.previous, undefined);
    assert.equal(
      earlier.notices.map((notice) => notice.replace(/^.*?`levy-rate`: /, '')),
      ['the value from 2024-07-01 without end is confirmed as carried into 2024-25 (carriedOver), but this pack has no previous pack to carry it from (a pack of fixture-pay with a lower version and an earlier year). Remove its carriedOver, or move it to the value carried over'],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a confirmation must say who reviewed it and why (schema)', () => {
  const root = family([LAST_YEAR, copied(`${carriedLine}    carriedOver: { taxYear: 2026-27 }\n`)]);
  try {
    const loaded = loadPacks([root], { displayRoot: root });
    assert.equal(
      loaded.diagnostics.map((diagnostic) => [diagnostic.kind, diagnostic.location.file, diagnostic.location.line]),
      [
        ['schema', 'fixture-pay/2.0.0/parameters/levy-rate.yaml', 8],
        ['schema', 'fixture-pay/2.0.0/parameters/levy-rate.yaml', 8],
      ],
    );
    assert.ok(loaded.diagnostics.every((diagnostic) => /reviewedBy|reason/.test(diagnostic.message)), JSON.stringify(loaded.diagnostics));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('every value a shipped pack carries from the year before is confirmed for its year', () => {
  const { loaded } = shippedPacks();
  const results = loaded.packs.map((report) => carriedValues(report.pack, { displayRoot: PROJECT_ROOT }));
  assert.equal(results.flatMap((result) => result.notices.map(formatDiagnostic)), []);
  assert.ok(results.some((result) => result.previous), 'at least one shipped pack has a year before it, so the check ran');
});

test.run();
