import type { ParameterTrace, TraceNode } from '../../engine/index.ts';
import { dollarsOfCentsText, dollarsOfText } from '../lib/money.ts';
import { isMoney, renderValue } from '../lib/values.ts';

/** By rule id, rounded intermediate values' amounts before rounding (the engine's intermediatesBeforeRounding). */
export type BeforeRounding = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** A declared source by id: parameter traces name their source by id only. */
export type SourceLookup = (id: string) => { reference: string; title: string } | undefined;

/**
 * The trace as an indented tree, one step per `●` line (title and rule id), its working indented
 * beneath it, then the steps it rests on. A step reached a second time is named, not repeated.
 * `printed` is shared across roots, so a report with several traces shows each step once.
 */
export function traceLines(node: TraceNode, sourceOf: SourceLookup, printed: Set<string>, beforeRounding: BeforeRounding = new Map(), depth = 0): string[] {
  const pad = '    '.repeat(depth);
  const head = `${pad}● ${node.title}  [rule ${node.ruleId}]`;
  // A rule runs once per calculation, so its id names the step.
  if (printed.has(node.ruleId)) return [`${head} (shown above)`];
  printed.add(node.ruleId);
  const lines = [head];
  const field = (label: string, values: readonly string[]) => {
    values.forEach((value, index) => lines.push(`${pad}  ${(index === 0 ? label : '').padEnd(16)}${value}`));
  };
  if (node.formula) field('formula', [node.formula]);
  const facts = Object.entries(node.inputs.facts);
  if (facts.length > 0) field('facts', facts.map(([id, value]) => `${id} = ${renderValue(value)}`));
  const parameters = Object.entries(node.inputs.parameters);
  if (parameters.length > 0) field('parameters', parameters.flatMap(([id, read]) => parameterLines(id, read, sourceOf)));
  const intermediate = Object.entries(node.inputs.intermediate ?? {});
  // The engine works in cents and keeps no unit with a named value, so these are shown as it holds them.
  if (intermediate.length > 0) field('intermediate', [...intermediate.map(([name, value]) => intermediateText(name, value, beforeRounding.get(node.ruleId)?.[name])), '(as the engine holds them: amounts in cents)']);
  if (node.inputs.beforeRounding !== undefined) {
    field('before rounding', [isMoney(node.result) ? dollarsOfCentsText(node.inputs.beforeRounding) : node.inputs.beforeRounding]);
  }
  field('result', [`${renderValue(node.result)}${node.rounding ? `  (rounding: ${node.rounding})` : ''}`]);
  if (node.sources.length > 0) field('sources', node.sources.map((source) => `${source.reference}: ${source.title} (${source.kind})`));
  for (const child of node.children) lines.push(...traceLines(child, sourceOf, printed, beforeRounding, depth + 1));
  return lines;
}

/**
 * `weeklyWithholding = 35300 (before rounding 35301.99)`: a rounded intermediate value with the exact
 * amount it was rounded from, so a reviewer can see that nothing was rounded earlier.
 */
export function intermediateText(name: string, value: unknown, before: string | undefined): string {
  return `${name} = ${renderValue(value)}${before === undefined ? '' : ` (before rounding ${before})`}`;
}

/** `withholding-scale-2, row 7: below 2596, a 0.3200, b 176.5769` then when it is in effect and its source. */
function parameterLines(id: string, read: ParameterTrace, sourceOf: SourceLookup): string[] {
  const value =
    read.matchedRow !== undefined
      ? `row ${read.matchedRow}: ${Object.entries(read.row ?? {}).map(([column, cell]) => `${column} ${cell === null ? 'none' : String(cell)}`).join(', ')}${read.amountBelowRow !== undefined ? `; amount due below the row ${dollarsOfText(read.amountBelowRow)}` : ''}`
      : scalar(read.value, read.unit);
  const { from, toExclusive } = read.effectivePeriod;
  const source = sourceOf(read.source);
  return [
    `${id} (${read.title})`,
    `    ${value}`,
    `    in effect ${toExclusive === null ? `from ${from}` : `${from} to before ${toExclusive}`}; source ${read.source}${source ? ` (${source.reference})` : ''}`,
  ];
}

function scalar(value: unknown, unit: string): string {
  const text = String(value);
  if (unit === 'dollars') return dollarsOfText(text);
  if (unit === 'cents') return dollarsOfCentsText(text);
  return `${text} (${unit})`;
}
