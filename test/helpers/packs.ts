import { fileURLToPath } from 'node:url';
import { createCatalog, loadPacks, type Catalog, type LoadedPacks } from '../../engine/index.ts';

/** The project root, whatever the working directory of the test run. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SHIPPED_PACKS = fileURLToPath(new URL('../../rulepacks/', import.meta.url));
export const FIXTURE_PACKS = fileURLToPath(new URL('../fixtures/packs/', import.meta.url));

let shipped: { loaded: LoadedPacks; catalog: Catalog } | undefined;

/** The shipped packs, loaded once per test process. */
export function shippedPacks(): { loaded: LoadedPacks; catalog: Catalog } {
  if (!shipped) {
    const loaded = loadPacks([SHIPPED_PACKS], { displayRoot: PROJECT_ROOT });
    shipped = { loaded, catalog: createCatalog(loaded.packs.flatMap((pack) => pack.plans)) };
  }
  return shipped;
}

/** A Money object in the API's shape. */
export function money(cents: number): { _tag: 'Money'; cents: number; currency: 'AUD' } {
  return { _tag: 'Money', cents, currency: 'AUD' };
}

/** Facts shape A of the contract. */
export function payFacts(cents: number, period: string, taxFreeThresholdClaimed: boolean) {
  return { grossPay: { _tag: 'GrossPay', amount: money(cents), period }, taxFreeThresholdClaimed };
}

/**
 * The made-up next-year pay pack (test/fixtures/packs/next-year): where it is, and the version and
 * tax year its pack.yaml gives, so that tests follow the fixture wherever its pretend year is moved.
 */
export function nextYearFixture(): { root: string; dir: string; version: string; rulePackVersion: string; taxYear: { id: string; from: string; toExclusive: string } } {
  const root = `${FIXTURE_PACKS}next-year`;
  const [report] = loadPacks([root]).packs;
  if (!report) throw new Error(`no pack under ${root}`);
  const { pack } = report;
  return { root, dir: pack.dir, version: pack.version, rulePackVersion: `${pack.id}/${pack.version}`, taxYear: pack.taxYear };
}
