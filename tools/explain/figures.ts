import { renderValue, isMoney } from '../lib/values.ts';

/** One figure of a report: where it is, and its value (a ledger component's amount, with its effect and status). */
export interface Figure {
  /** `netPay`, `withholdings.total`, or `ledger.components.income-tax` for a component, by its id. */
  path: string;
  /** What a reader calls it: the path, or for a component its ledger's path and its label. */
  label: string;
  value: unknown;
  component?: { effect: string; status: string };
}

/** Every figure of a report in the order it is written, leaving traces out. */
export function reportFigures(report: Record<string, unknown>): Figure[] {
  const figures: Figure[] = [];
  const walk = (object: Record<string, unknown>, prefix: string) => {
    for (const [name, value] of Object.entries(object)) {
      if (name === '_tag' || isTraceNode(value)) continue;
      if (Array.isArray(value) && value.length > 0 && value.every(isLedgerComponent)) {
        for (const component of value as unknown as LedgerComponent[]) {
          figures.push({ path: `${prefix}${name}.${component.id}`, label: `${prefix}${name}: ${component.label}`, value: component.amount, component: { effect: component.effect, status: component.status } });
        }
      } else if (typeof value === 'object' && value !== null && !isMoney(value) && !Array.isArray(value)) walk(value as Record<string, unknown>, `${prefix}${name}.`);
      else figures.push({ path: `${prefix}${name}`, label: `${prefix}${name}`, value });
    }
  };
  walk(report, '');
  return figures;
}

/** The report's own figures, one per line (`withholdings.total  $353.00`), leaving traces to the tree. */
export function figureLines(report: Record<string, unknown>): string[] {
  const rows: { label: string; value: string; components?: [string, string][] }[] = [];
  for (const figure of reportFigures(report)) {
    if (!figure.component) {
      rows.push({ label: figure.label, value: renderValue(figure.value) });
      continue;
    }
    // A ledger's components follow each other: one heading row for the ledger, a line per component.
    const ledger = figure.path.slice(0, figure.path.lastIndexOf('.'));
    let row = rows.at(-1);
    if (!row?.components || row.label !== ledger) rows.push((row = { label: ledger, value: '', components: [] }));
    const { effect, status } = figure.component;
    const sign = effect === 'subtractive' ? '−' : effect === 'additive' ? '+' : ' ';
    row.components!.push([figure.label.slice(ledger.length + 2), `${sign} ${renderValue(figure.value)}  (${effect}, ${status})`]);
  }
  const width = Math.max(0, ...rows.map((row) => row.label.length));
  return rows.flatMap((row) => {
    if (!row.components) return [`  ${row.label.padEnd(width)}  ${row.value}`];
    const inner = Math.max(...row.components.map(([label]) => label.length));
    return [`  ${row.label}`, ...row.components.map(([label, value]) => `      ${label.padEnd(inner)}  ${value}`)];
  });
}

/** True for a trace node as the API shows it. */
export function isTraceNode(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'TraceNode';
}

interface LedgerComponent {
  id: string;
  label: string;
  amount: unknown;
  effect: string;
  status: string;
}

function isLedgerComponent(value: unknown): value is LedgerComponent {
  return typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'LedgerComponent';
}
