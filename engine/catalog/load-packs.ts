import type { Diagnostic } from '../model/diagnostics.ts';
import type { PackDef } from '../model/pack.ts';
import { declaredTaxYear, discoverPackDirs, loadPack, type LoadOptions } from '../load/load-pack.ts';
import type { CalculatorPlan } from '../run/plan.ts';
import { planCalculators } from '../run/plan.ts';
import { checkPack } from '../validate/check-pack.ts';

/** One pack after loading and checking. */
export interface PackReport {
  pack: PackDef;
  diagnostics: Diagnostic[];
  /** Run plans of its calculators; empty when the pack has diagnostics. */
  plans: CalculatorPlan[];
  unreadable: string[];
  fileCount: number;
}

export interface LoadedPacks {
  packs: PackReport[];
  /** Every diagnostic of every pack, in pack order. */
  diagnostics: Diagnostic[];
  /** Paths given that do not exist or are not folders. */
  missing: string[];
}

/**
 * Loads, checks and plans every pack at or under the given paths (or, with `taxYears`, every pack
 * of those years). Collects every problem of every pack; only packs without problems get run plans.
 */
export function loadPacks(paths: readonly string[], options: LoadOptions = {}): LoadedPacks {
  const { dirs: found, missing } = discoverPackDirs(paths);
  const { taxYears } = options;
  const dirs = taxYears ? found.filter((dir) => isOfYears(declaredTaxYear(dir, options), taxYears)) : found;
  const packs = dirs.map((dir): PackReport => {
    const loaded = loadPack(dir, options);
    // A file that does not parse leaves holes that every later check would trip over: report the
    // syntax first, and check the rest once it parses.
    const parses = !loaded.diagnostics.some((diagnostic) => diagnostic.kind === 'parse');
    const diagnostics = [...loaded.diagnostics];
    const checked = parses ? checkPack(loaded.pack) : undefined;
    if (checked) diagnostics.push(...checked.diagnostics);
    let plans: CalculatorPlan[] = [];
    if (checked && diagnostics.length === 0) {
      const planned = planCalculators(checked);
      diagnostics.push(...planned.diagnostics);
      if (planned.diagnostics.length === 0) plans = planned.plans;
    }
    return { pack: loaded.pack, diagnostics, plans, unreadable: loaded.unreadable, fileCount: loaded.fileCount };
  });
  // The same calculator may be served by several packs only for different contexts.
  const seen = new Map<string, PackDef>();
  for (const report of packs) {
    for (const plan of report.plans) {
      const key = `${plan.def.id}|${plan.context.jurisdiction}|${plan.context.taxYear}`;
      const other = seen.get(key);
      if (other) {
        const diagnostic: Diagnostic = {
          kind: 'duplicate-id',
          message: `calculator \`${plan.def.id}\` for ${plan.context.jurisdiction} ${plan.context.taxYear} is also defined by pack ${other.id}/${other.version}`,
          location: plan.def.at,
        };
        report.diagnostics.push(diagnostic);
      } else seen.set(key, report.pack);
    }
  }
  return { packs, diagnostics: packs.flatMap((report) => report.diagnostics), missing };
}

/** A pack whose year is unknown is kept: only loading it can say what is wrong with it. */
function isOfYears(year: string | undefined, taxYears: readonly string[]): boolean {
  return year === undefined || taxYears.includes(year);
}
