import type { GraphFormat } from './args.ts';
import type { CalculatorGraph, GraphLink, GraphNode, NodeKind } from './graph.ts';

/** One document holding every calculator's graph, so that it pastes into a single Markdown block or `dot` run. */
export function renderGraphs(graphs: readonly CalculatorGraph[], format: GraphFormat): string {
  return format === 'dot' ? dot(graphs) : mermaid(graphs);
}

const LEGEND = [
  'One subgraph per calculator. Input fact: parallelogram. Derived fact: rounded box.',
  'Output fact (one the calculator returns): derived fact drawn bold. Parameter: cylinder. Rule: hexagon.',
  'Arrows: fact -> rule that requires it -> fact it provides; dashed: parameter -> rule that reads it.',
];

const COLOURS: Readonly<Record<NodeKind, { fill: string; stroke: string }>> = {
  input: { fill: '#e3f2fd', stroke: '#1565c0' },
  derived: { fill: '#f1f8e9', stroke: '#558b2f' },
  output: { fill: '#dcedc8', stroke: '#33691e' },
  parameter: { fill: '#fff8e1', stroke: '#ff8f00' },
  rule: { fill: '#f3e5f5', stroke: '#6a1b9a' },
};

function mermaid(graphs: readonly CalculatorGraph[]): string {
  const lines = [...LEGEND.map((line) => `%% ${line}`), 'flowchart LR'];
  for (const [kind, colour] of Object.entries(COLOURS)) {
    lines.push(`  classDef ${kind} fill:${colour.fill},stroke:${colour.stroke}${kind === 'output' ? ',stroke-width:3px' : ''}`);
  }
  for (const graph of graphs) {
    lines.push(`  subgraph ${graph.key} ["${mermaidText([graph.title])}"]`);
    for (const node of graph.nodes) lines.push(`    ${mermaidNode(node)}`);
    for (const link of graph.links) lines.push(`    ${link.from} ${link.kind === 'parameter' ? '-.->' : '-->'} ${link.to}`);
    lines.push('  end');
  }
  return `${lines.join('\n')}\n`;
}

function mermaidNode(node: GraphNode): string {
  const text = `"${mermaidText(node.label)}"`;
  const shape: Record<NodeKind, string> = {
    input: `[/${text}/]`,
    derived: `(${text})`,
    output: `(${text})`,
    parameter: `[(${text})]`,
    rule: `{{${text}}}`,
  };
  return `${node.key}${shape[node.kind]}:::${node.kind}`;
}

/** Mermaid labels are quoted; a quote inside is written as an entity, lines are joined with <br/>. */
function mermaidText(lines: readonly string[]): string {
  return lines
    .filter((line) => line !== '')
    .map((line) => line.replaceAll('"', '#quot;').replaceAll('<', '#lt;').replaceAll('>', '#gt;'))
    .join('<br/>');
}

function dot(graphs: readonly CalculatorGraph[]): string {
  const lines = [...LEGEND.map((line) => `// ${line}`), 'digraph packs {', '  rankdir=LR;', '  node [fontname="Helvetica", style=filled];'];
  for (const graph of graphs) {
    lines.push(`  subgraph cluster_${graph.key} {`, `    label=${dotText([graph.title])};`);
    for (const node of graph.nodes) lines.push(`    ${dotNode(node)}`);
    for (const link of graph.links) lines.push(`    ${dotLink(link)}`);
    lines.push('  }');
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function dotNode(node: GraphNode): string {
  const shape: Record<NodeKind, string> = {
    input: 'shape=parallelogram',
    derived: 'shape=box, style="rounded,filled"',
    output: 'shape=box, style="rounded,filled,bold", penwidth=3',
    parameter: 'shape=cylinder',
    rule: 'shape=hexagon',
  };
  const colour = COLOURS[node.kind];
  return `${node.key} [label=${dotText(node.label)}, ${shape[node.kind]}, fillcolor="${colour.fill}", color="${colour.stroke}", class="${node.kind}"];`;
}

function dotLink(link: GraphLink): string {
  return `${link.from} -> ${link.to}${link.kind === 'parameter' ? ' [style=dashed]' : ''};`;
}

/** A DOT string literal: backslashes and quotes escaped, lines joined with \n. */
function dotText(lines: readonly string[]): string {
  return `"${lines
    .filter((line) => line !== '')
    .map((line) => line.replaceAll('\\', '\\\\').replaceAll('"', '\\"'))
    .join('\\n')}"`;
}
