import { fileURLToPath } from 'node:url';
import { PAYROLL } from './payroll.ts';
import { createCatalog, loadPacks, readServingDefaults, type CalculatorPlan, type Catalog, type LoadedPacks } from '../../engine/index.ts';

/** The project root and its shipped packs, wherever the bench is run from. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PACKS_DIR = fileURLToPath(new URL('../../rulepacks/', import.meta.url));

export const TAKE_HOME = 'au.pay.take-home';
export const ANNUAL = 'au.income-tax.annual';

/**
 * Loads the shipped packs the way the service does; any diagnostic is a broken bench. The calculators
 * measured are those of the default tax year (the serving file's), the year plain `npm start` serves.
 */
export function loadShipped(): { loaded: LoadedPacks; catalog: Catalog; takeHome: CalculatorPlan; annual: CalculatorPlan; payroll: CalculatorPlan | undefined } {
  const loaded = loadPacks([PACKS_DIR], { displayRoot: PROJECT_ROOT });
  if (loaded.diagnostics.length > 0 || loaded.missing.length > 0) {
    throw new Error(`the shipped packs do not load cleanly: ${loaded.diagnostics.length} diagnostics, ${loaded.missing.length} missing`);
  }
  const serving = readServingDefaults([PACKS_DIR]);
  if (serving.diagnostics.length > 0) throw new Error(`the serving file has ${serving.diagnostics.length} diagnostics`);
  const catalog = createCatalog(loaded.packs.flatMap((pack) => pack.plans));
  const year = { taxYear: serving.defaults?.defaultTaxYear ?? null };
  const takeHome = catalog.find(TAKE_HOME, year);
  const annual = catalog.find(ANNUAL, year);
  if (!takeHome || !annual) throw new Error(`the shipped packs do not offer ${TAKE_HOME} and ${ANNUAL}`);
  // Shipped for the same year, though the serving file keeps it for when it is asked for.
  const payroll = catalog.find(PAYROLL, year);
  return { loaded, catalog, takeHome, annual, payroll };
}
