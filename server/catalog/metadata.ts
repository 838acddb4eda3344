import {
  calculatorEntry,
  calculatorFacts,
  factDescriptor,
  factHelp,
  graphEdges,
  ruleDescriptor,
  type Catalog,
  type CalculatorEntry,
  type CalculatorPlan,
  type FactDescriptor,
  type HelpMode,
  type RuleDescriptor,
} from '../../engine/index.ts';
import type { MetadataShape } from '../contract/metadata-schemas.ts';

/** Filters of the listing routes; a well-formed value that matches nothing gives an empty list. */
export interface ListFilter {
  jurisdiction?: string;
  taxYear?: string;
  calculator?: string;
}

declare const holds: unique symbol;

/** JSON text, typed by the value it was serialised from. */
export type JsonText<Value> = string & { readonly [holds]?: Value };

/**
 * The catalog's metadata as the API serves it, as JSON text typed by the schema of its answer.
 * Asynchronous so that every calculator operation, metadata included, runs under the same time budget.
 */
export interface MetadataSource {
  jurisdictions(): Promise<JsonText<MetadataShape<'JurisdictionList'>>>;
  taxYears(filter: ListFilter): Promise<JsonText<MetadataShape<'TaxYearList'>>>;
  calculators(filter: ListFilter): Promise<JsonText<MetadataShape<'CalculatorList'>>>;
  calculator(plan: CalculatorPlan): Promise<JsonText<CalculatorEntry>>;
  schema(plan: CalculatorPlan, help: HelpMode): Promise<JsonText<MetadataShape<'CalculatorSchema'>>>;
  graph(plan: CalculatorPlan): Promise<JsonText<MetadataShape<'CalculatorGraph'>>>;
  facts(filter: ListFilter): Promise<JsonText<MetadataShape<'FactList'>>>;
  rules(filter: ListFilter): Promise<JsonText<MetadataShape<'RuleList'>>>;
}

/**
 * Metadata worked out once from the catalog; requests only filter it. The fact and rule lists hold
 * each distinct descriptor once: one that differs between tax years (its parameters' periods and
 * sources, say) appears once per version, so an unfiltered list covers every year served. Answers are JSON text, kept by
 * the set of calculators they cover (a handful, whatever the filters), so a listing is serialised once.
 */
export function createMetadata(catalog: Catalog): MetadataSource {
  const plans = catalog.plans;
  const answers = new Map<string, string>();
  const once = <Value>(key: string, make: () => Value): JsonText<Value> => {
    let found = answers.get(key);
    if (found === undefined) {
      found = JSON.stringify(make());
      answers.set(key, found);
    }
    return found;
  };
  const keyOf = (operation: string, selected: readonly CalculatorPlan[], extra = '') => `${operation}|${selected.map((plan) => plans.indexOf(plan)).join(',')}|${extra}`;
  const matching = (filter: ListFilter) =>
    plans.filter(
      (plan) =>
        (filter.jurisdiction === undefined || plan.context.jurisdiction === filter.jurisdiction) &&
        (filter.taxYear === undefined || plan.context.taxYear === filter.taxYear) &&
        (filter.calculator === undefined || plan.def.id === filter.calculator),
    );
  const entries = new Map(plans.map((plan) => [plan, calculatorEntry(plan)]));
  const factsOf = new Map(plans.map((plan) => [plan, calculatorFacts(plan).map(factDescriptor)]));
  const rulesOf = new Map(plans.map((plan) => [plan, plan.steps.map((step) => ruleDescriptor(plan, step.rule))]));
  const uniqueBy = <T>(items: T[], key: (item: T) => string) => {
    const seen = new Set<string>();
    return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
  };

  return {
    jurisdictions: async () =>
      once<MetadataShape<'JurisdictionList'>>('jurisdictions', () => ({
        jurisdictions: uniqueBy(
          plans.map((plan) => ({ code: plan.pack.jurisdiction.code, title: plan.pack.jurisdiction.title })),
          (entry) => entry.code,
        ),
      })),
    taxYears: async (filter) => {
      const selected = matching(filter);
      return once<MetadataShape<'TaxYearList'>>(keyOf('taxYears', selected), () => ({
        taxYears: uniqueBy(
          selected.map((plan) => ({ jurisdiction: plan.context.jurisdiction, taxYear: plan.context.taxYear })),
          (entry) => `${entry.jurisdiction}|${entry.taxYear}`,
        ),
      }));
    },
    calculators: async (filter) => {
      const selected = matching(filter);
      return once<MetadataShape<'CalculatorList'>>(keyOf('calculators', selected), () => ({ calculators: selected.map((plan) => entries.get(plan)!) }));
    },
    calculator: async (plan) => once(keyOf('calculator', [plan]), () => entries.get(plan)!),
    schema: async (plan, help) => once<MetadataShape<'CalculatorSchema'>>(keyOf('schema', [plan], help), () => {
      const helpItems = factHelp(plan, help);
      const inputFacts = factsOf.get(plan)!.slice(0, plan.inputFacts.length).map((fact, index): FactDescriptor => {
        const question = helpItems?.[index]?.question;
        return question ? { ...fact, question } : fact;
      });
      return {
        calculator: entries.get(plan)!,
        inputFacts,
        outputFacts: plan.def.outputFacts.map((id) => factsOf.get(plan)!.find((fact) => fact.id === id)!),
        reportSchemaName: plan.def.reportSchemaName,
        rules: rulesOf.get(plan)!,
      };
    }),
    graph: async (plan) =>
      once<MetadataShape<'CalculatorGraph'>>(keyOf('graph', [plan]), () => ({
        calculator: entries.get(plan)!,
        edges: graphEdges(plan),
        facts: factsOf.get(plan)!,
        rules: rulesOf.get(plan)!,
        // The same validator runs at boot, where a pack with any issue stops the service.
        validationIssues: [],
      })),
    facts: async (filter) => {
      const selected = matching(filter);
      return once<MetadataShape<'FactList'>>(keyOf('facts', selected), () => ({ facts: uniqueBy(selected.flatMap((plan) => factsOf.get(plan)!), (fact) => JSON.stringify(fact)) }));
    },
    rules: async (filter) => {
      const selected = matching(filter);
      return once<MetadataShape<'RuleList'>>(keyOf('rules', selected), () => ({ rules: uniqueBy(selected.flatMap((plan): RuleDescriptor[] => rulesOf.get(plan)!), (rule) => JSON.stringify(rule)) }));
    },
  };
}
