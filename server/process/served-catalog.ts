import { createCatalog, formatDiagnostic, readServingDefaults, type Catalog, type ServingDefaults } from '../../engine/index.ts';
import { BootFailure, loadCatalog, storedYaml } from './boot.ts';
import { PROJECT_ROOT } from '../project-paths.ts';
import { ConfigError, type ServiceConfig } from './config.ts';

/** What a running service offers: the calculators of its tax years, and the year a request without one gets. */
export interface Served {
  catalog: Catalog;
  /** The tax years served, earliest first. */
  taxYears: string[];
  defaultTaxYear: string;
}

/** The settings that choose what is served; `calculators` left out means the serving file's default. */
export type ServingSettings = Pick<ServiceConfig, 'taxYears' | 'defaultTaxYear'> & Partial<Pick<ServiceConfig, 'calculators'>>;

/** The serving file beside the packs, if any; one with problems stops the boot. */
export function loadServingDefaults(packPaths: readonly string[]): ServingDefaults | undefined {
  const { defaults, diagnostics } = readServingDefaults(packPaths, { displayRoot: PROJECT_ROOT, storedYaml: storedYaml() });
  if (diagnostics.length > 0) throw new BootFailure(diagnostics.map(formatDiagnostic));
  return defaults;
}

/**
 * Loads the packs of the tax years to serve and chooses what to serve (see resolveServing). Only
 * the packs of the years asked for are read and checked: a boot reads what it serves. When a year
 * asked for has no pack, every pack is read, so that the message can name the years they serve.
 */
export function loadServed(packPaths: readonly string[], settings: ServingSettings): Served {
  const defaults = loadServingDefaults(packPaths);
  const askedFor = settings.taxYears === 'all' ? undefined : (settings.taxYears ?? defaults?.taxYears);
  if (askedFor) {
    const catalog = loadCatalog(packPaths, askedFor);
    const loadedYears = new Set(catalog.plans.map((plan) => plan.context.taxYear));
    if (askedFor.every((year) => loadedYears.has(year))) return resolveServing(catalog, defaults, settings);
  }
  return resolveServing(loadCatalog(packPaths), defaults, settings);
}

/**
 * Chooses the tax years and calculators to serve, once the packs are loaded: TAX_YEARS,
 * DEFAULT_TAX_YEAR and CALCULATORS when set, else the serving file's defaults (its years, and
 * every calculator but those it keeps for when an operator asks), else (no serving file) every
 * year and calculator the packs serve. A year or calculator no loaded pack serves, or a default
 * year that is not served, stops the boot with a message naming the setting (or the file) to change.
 */
export function resolveServing(loaded: Catalog, defaults: ServingDefaults | undefined, settings: ServingSettings): Served {
  const shipped = [...new Set(loaded.plans.map((plan) => plan.context.taxYear))].sort();
  const offered = `the loaded rule packs serve ${shipped.join(', ')}`;
  const problems: string[] = [];

  let taxYears: string[];
  if (settings.taxYears === 'all') taxYears = shipped;
  else if (settings.taxYears) {
    for (const year of settings.taxYears) if (!shipped.includes(year)) problems.push(`TAX_YEARS names ${year}, which no loaded rule pack serves (${offered})`);
    taxYears = [...settings.taxYears].sort();
  } else if (defaults) {
    const unshipped = defaults.taxYears.map((year, index) => ({ year, index })).filter(({ year }) => !shipped.includes(year));
    if (unshipped.length > 0) {
      const lines = unshipped.map(({ year, index }) => {
        const { file, line, column } = defaults.locate('taxYears', index);
        return `${file}:${line}:${column} taxYears lists ${year}, which no loaded rule pack serves (${offered}); ship its packs, or choose the years to serve with TAX_YEARS`;
      });
      throw new BootFailure(lines);
    }
    taxYears = [...defaults.taxYears].sort();
  } else taxYears = shipped;

  let defaultTaxYear: string | undefined;
  if (settings.defaultTaxYear) {
    if (taxYears.includes(settings.defaultTaxYear)) defaultTaxYear = settings.defaultTaxYear;
    else problems.push(`DEFAULT_TAX_YEAR must be one of the tax years served (${taxYears.join(', ')}); to default to another year, serve it too with TAX_YEARS`);
  } else if (defaults && taxYears.includes(defaults.defaultTaxYear)) defaultTaxYear = defaults.defaultTaxYear;
  else if (taxYears.length === 1) defaultTaxYear = taxYears[0];
  else if (problems.length === 0) {
    const why = defaults ? `the default of ${defaults.file}, ${defaults.defaultTaxYear}, is not served` : 'no serving file names a default';
    problems.push(`DEFAULT_TAX_YEAR must be set to one of the tax years served (${taxYears.join(', ')}): ${why}`);
  }
  const calculators = chooseCalculators(loaded, defaults, settings.calculators ?? null, problems);
  if (problems.length > 0 || defaultTaxYear === undefined) throw new ConfigError(problems);

  const served = loaded.plans.filter((plan) => taxYears.includes(plan.context.taxYear) && (calculators === undefined || calculators.includes(plan.def.id)));
  return { catalog: createCatalog(served), taxYears, defaultTaxYear };
}

/**
 * The calculator ids to serve, or undefined for every one: CALCULATORS when set, else every
 * calculator but those the serving file keeps for when an operator asks. An id no loaded pack
 * defines is a problem of the setting, or stops the boot at the file's line.
 */
function chooseCalculators(loaded: Catalog, defaults: ServingDefaults | undefined, setting: ServiceConfig['calculators'], problems: string[]): string[] | undefined {
  const shipped = [...new Set(loaded.plans.map((plan) => plan.def.id))];
  const offered = `the loaded rule packs define ${shipped.join(', ')}`;
  if (setting === 'all') return undefined;
  if (setting) {
    for (const id of setting) if (!shipped.includes(id)) problems.push(`CALCULATORS names ${id}, which no loaded rule pack defines (${offered})`);
    return setting;
  }
  const onRequest = defaults?.calculatorsOnRequest ?? [];
  const unknown = onRequest.map((id, index) => ({ id, index })).filter(({ id }) => !shipped.includes(id));
  if (unknown.length > 0) {
    throw new BootFailure(
      unknown.map(({ id, index }) => {
        const { file, line, column } = defaults!.locate('calculatorsOnRequest', index);
        return `${file}:${line}:${column} calculatorsOnRequest lists ${id}, which no loaded rule pack defines (${offered}); ship its pack, or remove it from the list`;
      }),
    );
  }
  return onRequest.length === 0 ? undefined : shipped.filter((id) => !onRequest.includes(id));
}
