import type { CalculatorPlan, Catalog, FactDef, ParameterDef } from '../../engine/index.ts';
import type { GeneratedPage } from '../lib/content.ts';

/** The docs path of a calculator's generated reference page. */
export function referencePath(plan: CalculatorPlan): string {
  return `/reference/${plan.def.id.replace(/\./g, '-')}/${plan.context.taxYear}`;
}

/**
 * One reference page per calculator and tax year, generated from the loaded packs at boot, so the
 * documentation can never disagree with them: its facts, rules with formulas, parameters with every
 * value, period and source, and its fact/rule graph as a Mermaid diagram.
 */
export function referencePages(catalog: Catalog): GeneratedPage[] {
  return catalog.plans.map((plan) => ({
    path: referencePath(plan),
    source: `${plan.pack.id}/${plan.pack.version} (generated)`,
    markdown: calculatorPage(plan),
  }));
}

function calculatorPage(plan: CalculatorPlan): string {
  const { def, pack } = plan;
  const sources = new Map(pack.sources.map((source) => [source.id, source]));
  const parameters = new Map(pack.parameters.map((parameter) => [parameter.id, parameter]));
  const usedParameters = [...new Set(plan.steps.flatMap((step) => step.rule.parameters))].map((id) => parameters.get(id)!);
  const derived = plan.steps.map((step) => step.outputFact);
  const cite = (id: string) => {
    const source = sources.get(id);
    return source ? `${source.title} (${source.reference})` : id;
  };

  const lines: string[] = [
    '---',
    `title: ${yamlString(`${def.title} (${def.id}), ${plan.context.taxYear}`)}`,
    `description: ${yamlString(`Generated reference for the ${def.id} calculator in ${plan.context.jurisdiction} ${plan.context.taxYear}: facts, rules, parameters with their periods and sources, and its graph.`)}`,
    'status: published',
    'pageType: reference',
    'primaryReader: Correctness reviewer',
    '---',
    '',
    `# ${escapeText(def.title)}: \`${def.id}\``,
    '',
    escapeText(def.description),
    '',
    `This page is generated from rule pack \`${plan.rulePackVersion}\` when the service starts; it always matches what the service runs.`,
    '',
    '| | |',
    '|---|---|',
    `| Calculator | \`${def.id}\` |`,
    `| Jurisdiction and tax year | ${plan.context.jurisdiction}, ${plan.context.taxYear} (${pack.taxYear.from} to ${pack.taxYear.toExclusive}, exclusive) |`,
    `| Rule pack | \`${plan.rulePackVersion}\` |`,
    `| Report | \`${def.reportSchemaName}\` |`,
    `| Facts schema | \`${def.factsSchemaName}\` |`,
    '',
    '## Input facts',
    '',
    '| Fact | Title | Shape | Question |',
    '|---|---|---|---|',
    ...plan.inputFacts.map((fact) => `| \`${fact.id}\` | ${cell(fact.title)} | ${cell(shapeText(fact))} | ${cell(fact.question?.prompt ?? '')} |`),
    '',
    '## Derived facts',
    '',
    '| Fact | Title | Provided by |',
    '|---|---|---|',
    ...derived.map((fact) => `| \`${fact.id}\` | ${cell(fact.title)} | \`${plan.steps[plan.stepOfFact.get(fact.id)!]!.rule.id}\` |`),
    '',
    '## Graph',
    '',
    'Input facts are rounded boxes, derived facts are rectangles and parameters are hexagons; each arrow is labelled with the rule that reads one fact to provide the next.',
    '',
    '```mermaid',
    ...mermaidGraph(plan),
    '```',
    '',
    '## Rules, in the order they run',
    '',
  ];
  for (const step of plan.steps) {
    const rule = step.rule;
    lines.push(
      `### ${escapeText(rule.title)} (\`${rule.id}\`)`,
      '',
      escapeText(rule.explanation),
      '',
      `- Requires: ${rule.requires.map((id) => `\`${id}\``).join(', ') || 'nothing'}`,
      `- Provides: ${rule.provides.map((id) => `\`${id}\``).join(', ')}`,
      `- Parameters: ${rule.parameters.map((id) => `\`${id}\``).join(', ') || 'none'}`,
      `- Rounding: \`${step.roundingName}\``,
      `- Sources: ${rule.sources.map((id) => escapeText(cite(id))).join('; ') || 'none'} (policy: ${rule.sourcePolicy})`,
      '',
      '```text',
      step.formula,
      '```',
      '',
    );
  }
  lines.push('## Parameters', '');
  for (const parameter of usedParameters) lines.push(...parameterSection(parameter, plan, cite));
  lines.push('## Sources', '', ...pack.sources.map((source) => `- **${escapeText(source.reference)}** (${source.kind}): ${escapeText(source.title)}`), '');
  return `${lines.join('\n')}\n`;
}

function parameterSection(parameter: ParameterDef, plan: CalculatorPlan, cite: (id: string) => string): string[] {
  const inEffect = (from: string, to: string | null) => from <= plan.pack.taxYear.from && (to === null || to >= plan.pack.taxYear.toExclusive);
  const lines = [`### ${escapeText(parameter.title)} (\`${parameter.id}\`)`, ''];
  if (parameter.description) lines.push(escapeText(parameter.description), '');
  lines.push(`Unit: \`${parameter.unit}\`${parameter.table ? `; rows match on \`${parameter.table.bound}\` (in ${parameter.table.boundUnit}); columns: ${Object.entries(parameter.table.columns).map(([name, unit]) => `\`${name}\` (${unit})`).join(', ')}` : ''}.`, '');
  for (const value of parameter.values) {
    const period = `${value.effectivePeriod.from} to ${value.effectivePeriod.toExclusive ?? 'no end date'}`;
    const { from, toExclusive } = value.effectivePeriod;
    const partly = plan.byDate && from < plan.pack.taxYear.toExclusive && (toExclusive === null || toExclusive > plan.pack.taxYear.from);
    const marker = inEffect(from, toExclusive) ? ' — in effect for this tax year' : partly ? ` — in effect for part of this tax year, chosen by \`${plan.byDate!.factId}\`` : '';
    if (value.rows && parameter.table) {
      const columns = [parameter.table.bound, ...Object.keys(parameter.table.columns)];
      lines.push(
        `From ${period}${marker}. Source: ${escapeText(cite(value.source))}.`,
        '',
        `| Row | ${columns.join(' | ')} |`,
        `|---|${columns.map(() => '---:').join('|')}|`,
        ...value.rows.map((row, index) => `| ${index + 1} | ${columns.map((column) => (row[column] === null ? 'and over' : String(row[column]))).join(' | ')} |`),
        '',
      );
    } else {
      lines.push(`- ${period}: **${String(value.value)}**${marker}. Source: ${escapeText(cite(value.source))}.`);
    }
  }
  lines.push('');
  return lines;
}

function mermaidGraph(plan: CalculatorPlan): string[] {
  const id = (name: string) => name.replace(/[^A-Za-z0-9]/g, '_');
  const lines = ['flowchart LR'];
  for (const fact of plan.inputFacts) lines.push(`  ${id(fact.id)}([${fact.id}])`);
  for (const step of plan.steps) lines.push(`  ${id(step.outputFact.id)}[${step.outputFact.id}]`);
  const parameterIds = [...new Set(plan.steps.flatMap((step) => step.rule.parameters))];
  for (const parameter of parameterIds) lines.push(`  p_${id(parameter)}{{${parameter}}}`);
  for (const step of plan.steps) {
    for (const required of step.rule.requires) lines.push(`  ${id(required)} -->|${step.rule.id}| ${id(step.outputFact.id)}`);
    for (const parameter of step.rule.parameters) lines.push(`  p_${id(parameter)} -.-> ${id(step.outputFact.id)}`);
  }
  return lines;
}

function shapeText(fact: FactDef): string {
  const shape = fact.shape;
  if (shape.type === 'record') return `${shape.tag} { ${Object.entries(shape.fields).map(([name, field]) => `${name}: ${field.type === 'selection' ? field.options.join(' / ') : field.type}`).join(', ')} }`;
  if (shape.type === 'selection') return shape.options.join(' / ');
  return shape.type;
}

/** Text from the packs, made safe for Markdown (and for the MDX check): no raw `<`, `{` or `}`. */
function escapeText(text: string): string {
  return text.replace(/[<>{}]/g, (character) => `\\${character}`);
}

function cell(text: string): string {
  return escapeText(text).replace(/\|/g, '\\|');
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}
