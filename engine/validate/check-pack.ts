import { compileExpression, type CompiledExpression, type StaticType } from '../expressions/compile.ts';
import { BUILT_IN_ROUNDING_MODES, type RoundingMode } from '../money/rounding.ts';
import type { Diagnostic, DiagnosticKind, SourceLocation } from '../model/diagnostics.ts';
import type { CalculatorDef, FactDef, PackDef, ParameterDef, RuleDef } from '../model/pack.ts';
import { suggest } from '../model/suggest.ts';
import { templateFacts } from '../report/fields.ts';
import { staticTypeOf } from '../contract/fact-shapes.ts';
import { checkParameterCoversYear, checkParameterValues } from './parameters.ts';

/** A rule after checking: its compiled expression (when it has one and it compiled). */
export interface CheckedRule {
  def: RuleDef;
  compiled?: CompiledExpression;
}

/** A pack after checking: the problems found, and what later stages need. */
export interface CheckedPack {
  pack: PackDef;
  diagnostics: Diagnostic[];
  rules: Map<string, CheckedRule>;
  roundingModes: Map<string, RoundingMode>;
  /** For each fact id, the rules that provide it, in declaration order. */
  providers: Map<string, RuleDef[]>;
}

/**
 * Checks everything about a pack that can be known without a request: ids, references, sources,
 * parameter periods and values, expressions, the fact/rule graph and the calculators. Collects every
 * problem; never throws.
 */
export function checkPack(pack: PackDef): CheckedPack {
  const diagnostics: Diagnostic[] = [];
  const report = (kind: DiagnosticKind, message: string, location: SourceLocation) => diagnostics.push({ kind, message, location });

  const sources = indexById('source', pack.sources, report);
  const facts = indexById('fact', pack.facts, report);
  const parameters = indexById('parameter', pack.parameters, report);
  indexById('rule', pack.rules, report);
  indexById('calculator', pack.calculators, report);

  const roundingModes = new Map<string, RoundingMode>(BUILT_IN_ROUNDING_MODES.map((mode) => [mode.name, mode]));
  for (const mode of pack.roundingModes) {
    if (roundingModes.has(mode.id)) report('duplicate-id', `rounding mode \`${mode.id}\` is already defined`, mode.at);
    roundingModes.set(mode.id, { name: mode.id, to: mode.to, method: mode.method });
    checkSourceId(mode.source, `rounding mode \`${mode.id}\``, mode.at);
  }

  function checkSourceId(id: string, subject: string, at: SourceLocation): void {
    if (sources.has(id)) return;
    const hint = suggest(id, sources.keys());
    report('missing-source', `${subject} cites source \`${id}\`, which sources.yaml does not declare${hint ? `; did you mean \`${hint}\`?` : ''}`, at);
  }

  const yearKnown = pack.taxYear.from !== '' && pack.taxYear.toExclusive !== '';
  for (const parameter of pack.parameters) {
    parameter.values.forEach((value) => checkSourceId(value.source, `parameter \`${parameter.id}\``, value.sourceAt));
    if (!parameter.wellFormed) continue;
    const problems = checkParameterValues(parameter, sources);
    diagnostics.push(...problems);
    // Whether the year is covered is only worth asking of sound values and a readable tax year.
    if (problems.length === 0 && yearKnown) diagnostics.push(...checkParameterCoversYear(parameter, pack.taxYear));
  }

  // Providers: which rules provide each fact.
  const providers = new Map<string, RuleDef[]>();
  for (const rule of pack.rules) {
    rule.provides.forEach((factId, index) => {
      const fact = facts.get(factId);
      if (!fact) {
        const hint = suggest(factId, facts.keys());
        report('reference', `rule \`${rule.id}\` provides \`${factId}\`, which facts.yaml does not declare${hint ? `; did you mean \`${hint}\`?` : ''}`, rule.locate(['provides', index]));
        return;
      }
      if (fact.authority === 'input') {
        report('duplicate-provider', `fact \`${factId}\` is an input supplied by the caller; rule \`${rule.id}\` cannot also provide it`, rule.locate(['provides', index]));
        return;
      }
      providers.set(factId, [...(providers.get(factId) ?? []), rule]);
    });
  }
  for (const [factId, rules] of providers) {
    if (rules.length > 1 && !rules.every((rule) => rule.allowDuplicateProvides === true)) {
      for (const rule of rules.slice(1)) {
        report('duplicate-provider', `fact \`${factId}\` is provided by rule \`${rules[0]!.id}\` and again by rule \`${rule.id}\``, rule.locate(['provides', rule.provides.indexOf(factId)]));
      }
    }
  }
  for (const fact of pack.facts) {
    if (fact.authority === 'derived' && !providers.has(fact.id)) {
      report('missing-provider', `derived fact \`${fact.id}\` is provided by no rule`, fact.at);
    }
  }

  // Rules: references, sources, rounding and expressions.
  const rules = new Map<string, CheckedRule>();
  for (const rule of pack.rules) {
    const checked: CheckedRule = { def: rule };
    rules.set(rule.id, checked);
    let usable = rule.wellFormed;
    rule.requires.forEach((factId, index) => {
      if (facts.has(factId)) return;
      usable = false;
      const hint = suggest(factId, facts.keys());
      report('missing-provider', `rule \`${rule.id}\` requires \`${factId}\`, which is neither a declared input nor provided by any rule${hint ? `; did you mean \`${hint}\`?` : ''}`, rule.locate(['requires', index]));
    });
    rule.parameters.forEach((parameterId, index) => {
      if (parameters.has(parameterId)) return;
      usable = false;
      const hint = suggest(parameterId, parameters.keys());
      report('reference', `rule \`${rule.id}\` uses parameter \`${parameterId}\`, which the pack does not declare${hint ? `; did you mean \`${hint}\`?` : ''}`, rule.locate(['parameters', index]));
    });
    rule.sources.forEach((sourceId, index) => checkSourceId(sourceId, `rule \`${rule.id}\``, rule.locate(['sources', index])));
    if (rule.sourcePolicy === 'required' && rule.sources.length === 0) {
      report('missing-source', `rule \`${rule.id}\` requires a source (sourcePolicy: required) but cites none`, rule.locate(['sources']));
    }
    if (!roundingModes.has(rule.rounding)) {
      const hint = suggest(rule.rounding, roundingModes.keys());
      report('reference', `rule \`${rule.id}\` names rounding mode \`${rule.rounding}\`, which is neither built in nor declared in pack.yaml${hint ? `; did you mean \`${hint}\`?` : ''}`, rule.locate(['rounding']));
      usable = false;
    }
    if (rule.ledger && rule.wellFormed) {
      rule.ledger.forEach((component, index) => {
        if (!rule.requires.includes(component.fact)) {
          report('reference', `ledger component \`${component.id}\` reads \`${component.fact}\`, which rule \`${rule.id}\` does not require`, rule.locate(['ledger', index, 'fact']));
        } else if (facts.get(component.fact)?.wellFormed && facts.get(component.fact)?.shape.type !== 'money') {
          report('reference', `ledger component \`${component.id}\` reads \`${component.fact}\`, which is not money`, rule.locate(['ledger', index, 'fact']));
        }
      });
    }
    if (rule.expression !== undefined && usable) {
      const environment = {
        facts: new Map(rule.requires.map((id, index) => [id, { index, type: factType(facts.get(id)!) }])),
        parameters: new Map(rule.parameters.map((id, index) => [id, { index, type: parameterType(parameters.get(id)!) }])),
        roundingModes,
      };
      const { compiled, problems } = compileExpression(rule.expression, environment);
      for (const problem of problems) report('expression', `rule \`${rule.id}\`: ${problem.message}`, rule.locate(['expression', ...problem.path]));
      if (compiled) {
        checked.compiled = compiled;
        const provided = facts.get(rule.provides[0] ?? '');
        if (provided?.wellFormed && !typeFits(compiled.type, factType(provided))) {
          report('expression', `rule \`${rule.id}\` gives ${compiled.type.kind} but \`${provided.id}\` is ${provided.shape.type}`, rule.locate(['expression']));
        }
      }
    }
  }

  findCycles(pack, providers, report);
  for (const calculator of pack.calculators) checkCalculator(calculator, facts, providers, report);
  for (const example of pack.examples) {
    checkSourceId(example.source, `example \`${example.name}\``, example.at);
    if (!pack.calculators.some((calculator) => calculator.id === example.calculator)) {
      report('reference', `example \`${example.name}\` runs calculator \`${example.calculator}\`, which the pack does not define`, example.at);
    }
  }
  return { pack, diagnostics, rules, roundingModes, providers };
}

function parameterType(parameter: ParameterDef): StaticType {
  // A parameter whose file broke its schema is known by id only; what it holds is not trusted.
  if (!parameter.wellFormed) return { kind: 'unknown' };
  if (parameter.unit === 'bracket-table' && parameter.table) return { kind: 'table', parameters: [parameter.id], spec: parameter.table };
  return parameter.unit === 'boolean' ? { kind: 'boolean' } : { kind: 'number' };
}

function typeFits(actual: StaticType, expected: StaticType): boolean {
  return actual.kind === expected.kind || actual.kind === 'unknown' || expected.kind === 'unknown';
}

/** What expressions may assume about a fact: nothing, if its own entry is broken. */
function factType(fact: FactDef): StaticType {
  return fact.wellFormed ? staticTypeOf(fact.shape) : { kind: 'unknown' };
}

function indexById<T extends { id: string; at: SourceLocation }>(
  what: string,
  items: readonly T[],
  report: (kind: DiagnosticKind, message: string, at: SourceLocation) => void,
): Map<string, T> {
  const index = new Map<string, T>();
  for (const item of items) {
    if (item.id === '') continue;
    if (index.has(item.id)) {
      const first = index.get(item.id)!.at;
      report('duplicate-id', `${what} id \`${item.id}\` is already used at ${first.file}:${first.line}`, item.at);
    } else {
      index.set(item.id, item);
    }
  }
  return index;
}

/** Reports each cycle among rules once, naming the rules and facts around it. */
function findCycles(pack: PackDef, providers: Map<string, RuleDef[]>, report: (kind: DiagnosticKind, message: string, at: SourceLocation) => void): void {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: RuleDef[] = [];
  const visit = (rule: RuleDef) => {
    state.set(rule.id, 'visiting');
    stack.push(rule);
    for (const factId of rule.requires) {
      for (const provider of providers.get(factId) ?? []) {
        const seen = state.get(provider.id);
        if (seen === 'visiting') {
          const loop = stack.slice(stack.indexOf(provider));
          const path = [...loop, provider].map((step) => `\`${step.id}\``).join(' → ');
          report('cycle', `rules form a cycle: ${path} (each requires a fact the next provides)`, provider.at);
        } else if (seen === undefined) {
          visit(provider);
        }
      }
    }
    stack.pop();
    state.set(rule.id, 'done');
  };
  for (const rule of pack.rules) if (!state.has(rule.id)) visit(rule);
}

function checkCalculator(
  calculator: CalculatorDef,
  facts: Map<string, FactDef>,
  providers: Map<string, RuleDef[]>,
  report: (kind: DiagnosticKind, message: string, at: SourceLocation) => void,
): void {
  const subject = `calculator \`${calculator.id}\``;
  calculator.inputFacts.forEach((factId, index) => {
    const fact = facts.get(factId);
    if (!fact) {
      const hint = suggest(factId, facts.keys());
      report('reference', `${subject} takes \`${factId}\`, which facts.yaml does not declare${hint ? `; did you mean \`${hint}\`?` : ''}`, calculator.locate(['inputFacts', index]));
    } else if (fact.authority !== 'input') {
      report('reference', `${subject} takes \`${factId}\` as an input, but it is a derived fact`, calculator.locate(['inputFacts', index]));
    }
  });
  // Every fact the calculator's rules need must come from its inputs or from a rule.
  const visited = new Set<string>();
  const walk = (factId: string, at: SourceLocation) => {
    if (visited.has(factId)) return;
    visited.add(factId);
    const fact = facts.get(factId);
    if (!fact) {
      const hint = suggest(factId, facts.keys());
      report('reference', `${subject} uses \`${factId}\`, which facts.yaml does not declare${hint ? `; did you mean \`${hint}\`?` : ''}`, at);
      return;
    }
    if (fact.authority === 'input') {
      if (!calculator.inputFacts.includes(factId)) report('missing-provider', `${subject} needs input \`${factId}\` but does not take it (add it to inputFacts)`, calculator.locate(['inputFacts']));
      return;
    }
    const rules = providers.get(factId) ?? [];
    // Duplicates not allowed by their rules are reported once, at the pack level; this is the case they allow.
    if (rules.length > 1 && rules.every((rule) => rule.allowDuplicateProvides === true)) {
      report('duplicate-provider', `${subject} needs \`${factId}\`, which rules ${rules.map((rule) => `\`${rule.id}\``).join(' and ')} all provide`, at);
    }
    for (const rule of rules) {
      // A rule's undeclared requirements were reported at the rule.
      for (const required of rule.requires) if (facts.has(required)) walk(required, rule.at);
    }
  };
  calculator.outputFacts.forEach((factId, index) => walk(factId, calculator.locate(['outputFacts', index])));
  for (const factId of templateFacts(calculator.report)) walk(factId, calculator.locate(['report']));
}
