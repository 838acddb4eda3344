import type { HelpMode } from '../model/pack.ts';
import type { CalculatorPlan } from '../run/plan.ts';
import { describeShape } from '../contract/fact-shapes.ts';
import type { FactHelp } from '../contract/shapes.ts';
import { questionOf } from './descriptors.ts';

/**
 * Help for each input fact of a calculator in a help mode: `errors` gives each fact's question as
 * written; `schema`, `examples` and `sources` put the expected JSON, an example value or the legal
 * sources of the rules that read the fact in the question's help text; `full` puts all of them.
 * `none` gives no help at all.
 */
export function factHelp(plan: CalculatorPlan, mode: HelpMode): FactHelp[] | null {
  if (mode === 'none') return null;
  return plan.inputFacts.map((fact) => {
    const question = questionOf(fact);
    const item: FactHelp = { factId: fact.id, title: fact.title };
    if (!question) return item;
    const parts: string[] = [];
    if (mode === 'full' && question.helpText) parts.push(question.helpText);
    if (mode === 'schema' || mode === 'full') parts.push(`Expected JSON: ${describeShape(fact.shape, plan.pack.currency)}.`);
    if ((mode === 'examples' || mode === 'full') && fact.example !== undefined) parts.push(`Example: ${JSON.stringify(fact.example)}.`);
    if (mode === 'sources' || mode === 'full') {
      const titles = new Set<string>();
      for (const step of plan.steps) {
        if (step.rule.requires.includes(fact.id)) for (const source of step.ruleSources) titles.add(`${source.title} (${source.reference})`);
      }
      if (titles.size > 0) parts.push(`Sources: ${[...titles].join('; ')}.`);
    }
    item.question = parts.length > 0 ? { ...question, helpText: parts.join(' ') } : question;
    return item;
  });
}
