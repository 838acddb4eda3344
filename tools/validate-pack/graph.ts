import { ruleDescriptor, type CalculatorPlan } from '../../engine/index.ts';

/** What a node of a calculator graph stands for; each kind is drawn in its own shape and class. */
export type NodeKind = 'input' | 'derived' | 'output' | 'parameter' | 'rule';

export interface GraphNode {
  /** Unique within the whole document, safe as a Mermaid or DOT identifier. */
  key: string;
  kind: NodeKind;
  /** Lines of the label: the id first, then what it is. */
  label: string[];
}

/** `reads`: fact to the rule that requires it; `provides`: rule to the fact it derives; `parameter`: parameter to the rule that reads it. */
export interface GraphLink {
  from: string;
  to: string;
  kind: 'reads' | 'provides' | 'parameter';
}

/** The fact/rule graph of one calculator in one context. */
export interface CalculatorGraph {
  key: string;
  title: string;
  nodes: GraphNode[];
  links: GraphLink[];
}

/**
 * The graph of a calculator with rules as nodes, because a rule joins several facts and parameters
 * into one result: facts and parameters point at the rules that read them, rules at the fact they provide.
 * `prefix` keeps keys unique when several calculators share one document.
 */
export function calculatorGraph(plan: CalculatorPlan, prefix: string): CalculatorGraph {
  const nodes: GraphNode[] = [];
  const links: GraphLink[] = [];
  const keys = new Map<string, string>();
  // Keys are numbered rather than derived from ids, so no id can clash with another or break the syntax.
  const node = (identity: string, kind: NodeKind, label: string[]): string => {
    let key = keys.get(identity);
    if (!key) {
      key = `${prefix}_${kind[0]}${keys.size + 1}`;
      keys.set(identity, key);
      nodes.push({ key, kind, label });
    }
    return key;
  };
  const outputs = new Set(plan.def.outputFacts);
  for (const fact of plan.inputFacts) node(`fact:${fact.id}`, 'input', [fact.id, fact.title]);
  for (const step of plan.steps) {
    const { rule, outputFact } = step;
    const ruleKey = node(`rule:${rule.id}`, 'rule', [rule.id, rule.title]);
    for (const factId of rule.requires) {
      const fact = plan.facts.get(factId);
      links.push({ from: node(`fact:${factId}`, 'derived', [factId, fact?.title ?? '']), to: ruleKey, kind: 'reads' });
    }
    for (const parameter of ruleDescriptor(plan, rule).parameters) {
      const { from, toExclusive } = parameter.effectivePeriod;
      const period = toExclusive === null ? `from ${from}` : `${from} to before ${toExclusive}`;
      links.push({ from: node(`parameter:${parameter.id}`, 'parameter', [parameter.id, period]), to: ruleKey, kind: 'parameter' });
    }
    const factKey = node(`fact:${outputFact.id}`, outputs.has(outputFact.id) ? 'output' : 'derived', [outputFact.id, outputFact.title]);
    links.push({ from: ruleKey, to: factKey, kind: 'provides' });
  }
  return {
    key: prefix,
    title: `${plan.def.id}: ${plan.def.title} (${plan.rulePackVersion}, ${plan.context.jurisdiction} ${plan.context.taxYear})`,
    nodes,
    links,
  };
}
