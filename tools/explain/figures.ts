import { renderValue, isMoney } from '../lib/values.ts';

/** The report's own figures, one per line (`withholdings.total  $353.00`), leaving traces to the tree. */
export function figureLines(report: Record<string, unknown>): string[] {
  const rows: { label: string; value: string; components?: [string, string][] }[] = [];
  const walk = (object: Record<string, unknown>, prefix: string) => {
    for (const [name, value] of Object.entries(object)) {
      if (name === '_tag' || isTraceNode(value)) continue;
      if (Array.isArray(value) && value.length > 0 && value.every(isLedgerComponent)) {
        const components = value.map((component): [string, string] => {
          const sign = component.effect === 'subtractive' ? '−' : component.effect === 'additive' ? '+' : ' ';
          return [component.label, `${sign} ${renderValue(component.amount)}  (${component.effect}, ${component.status})`];
        });
        rows.push({ label: `${prefix}${name}`, value: '', components });
      } else if (typeof value === 'object' && value !== null && !isMoney(value) && !Array.isArray(value)) walk(value as Record<string, unknown>, `${prefix}${name}.`);
      else rows.push({ label: `${prefix}${name}`, value: renderValue(value) });
    }
  };
  walk(report, '');
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

function isLedgerComponent(value: unknown): value is { label: string; amount: unknown; effect: string; status: string } {
  return typeof value === 'object' && value !== null && (value as { _tag?: unknown })._tag === 'LedgerComponent';
}
