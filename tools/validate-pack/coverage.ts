import { inForceDuring, type PackReport } from '../../engine/index.ts';
import { displayPath } from '../lib/paths.ts';
import { traceEveryStep } from '../lib/trace-all.ts';

/** Which examples ran a rule. */
export interface RuleCoverage {
  id: string;
  /** Calculators of the pack whose plans include the rule; empty when none does. */
  calculators: string[];
  examples: string[];
}

/** Which examples matched one row of a bracket table. */
export interface RowCoverage {
  /** 1-based, as traces number rows. */
  row: number;
  /** The row as written in the pack. */
  values: Readonly<Record<string, unknown>>;
  examples: string[];
}

/** The rows of one value (effective period) of a bracket-table parameter. */
export interface PeriodCoverage {
  effectivePeriod: { from: string; toExclusive: string | null };
  source: string;
  /** False when the period does not cover the pack's whole tax year: no calculator of the pack reads it. */
  inEffect: boolean;
  rows: RowCoverage[];
}

export interface TableCoverage {
  parameter: string;
  title: string;
  /** Rules that declare the parameter. */
  readBy: string[];
  periods: PeriodCoverage[];
}

/** What the examples of one pack exercise. */
export interface PackCoverage {
  id: string;
  version: string;
  dir: string;
  taxYear: string;
  /** False when the pack has diagnostics: it has no run plans, so nothing could be measured. */
  measured: boolean;
  diagnostics: number;
  examples: { total: number; ran: number; couldNotRun: { name: string; error: string }[] };
  rules: RuleCoverage[];
  tables: TableCoverage[];
}

/** Runs every example of a pack, tracing every step, and records the rules run and table rows matched. */
export function measureCoverage(report: PackReport): PackCoverage {
  const { pack, plans } = report;
  const rulesRun = new Map<string, string[]>();
  const rowsMatched = new Map<string, string[]>();
  const couldNotRun: { name: string; error: string }[] = [];
  const record = (map: Map<string, string[]>, key: string, example: string) => {
    const list = map.get(key) ?? [];
    if (!list.includes(example)) list.push(example);
    map.set(key, list);
  };
  const measured = report.diagnostics.length === 0;
  if (measured) {
    for (const example of pack.examples) {
      const plan = plans.find((candidate) => candidate.def.id === example.calculator);
      const traced = plan ? traceEveryStep(plan, example.facts) : { ok: false as const, error: `calculator \`${example.calculator}\` is not in this pack` };
      if (!traced.ok) {
        couldNotRun.push({ name: example.name, error: traced.error });
        continue;
      }
      for (const node of traced.nodes) {
        record(rulesRun, node.ruleId, example.name);
        for (const [parameterId, read] of Object.entries(node.inputs.parameters)) {
          if (read.matchedRow !== undefined) record(rowsMatched, rowKey(parameterId, { from: read.effectivePeriod.from, toExclusive: read.effectivePeriod.toExclusive ?? null }, read.matchedRow), example.name);
        }
      }
    }
  }
  const year = pack.taxYear;
  return {
    id: pack.id,
    version: pack.version,
    dir: displayPath(pack.dir),
    taxYear: year.id,
    measured,
    diagnostics: report.diagnostics.length,
    examples: { total: pack.examples.length, ran: measured ? pack.examples.length - couldNotRun.length : 0, couldNotRun },
    rules: pack.rules.map((rule) => ({
      id: rule.id,
      calculators: plans.filter((plan) => plan.steps.some((step) => step.rule.id === rule.id)).map((plan) => plan.def.id),
      examples: rulesRun.get(rule.id) ?? [],
    })),
    tables: pack.parameters
      .filter((parameter) => parameter.unit === 'bracket-table')
      .map((parameter) => ({
        parameter: parameter.id,
        title: parameter.title,
        readBy: pack.rules.filter((rule) => rule.parameters.includes(parameter.id)).map((rule) => rule.id),
        periods: parameter.values.map((value) => ({
          effectivePeriod: { ...value.effectivePeriod },
          source: value.source,
          // The engine's rule: a value applies to the days of the year its period covers.
          inEffect: inForceDuring(value, year),
          rows: (value.rows ?? []).map((row, index) => ({
            row: index + 1,
            values: row,
            examples: rowsMatched.get(rowKey(parameter.id, value.effectivePeriod, index + 1)) ?? [],
          })),
        })),
      })),
  };
}

/** Exercised and total rules and in-effect table rows; rows of periods outside the tax year cannot be exercised, so they are not counted. */
export function coverageTotals(pack: PackCoverage): { rules: { exercised: number; total: number }; rows: { exercised: number; total: number } } {
  const rows = pack.tables.flatMap((table) => table.periods.filter((period) => period.inEffect).flatMap((period) => period.rows));
  return {
    rules: { exercised: pack.rules.filter((rule) => rule.examples.length > 0).length, total: pack.rules.length },
    rows: { exercised: rows.filter((row) => row.examples.length > 0).length, total: rows.length },
  };
}

/** Every rule and every in-effect row exercised, in a pack that could be measured. */
export function isFull(pack: PackCoverage): boolean {
  const totals = coverageTotals(pack);
  return pack.measured && totals.rules.exercised === totals.rules.total && totals.rows.exercised === totals.rows.total;
}

function rowKey(parameterId: string, period: { from: string; toExclusive: string | null }, row: number): string {
  return `${parameterId}|${period.from}|${period.toExclusive}|${row}`;
}
