import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildDocsSite, referencePages, referencePath } from '../../docs-site/index.ts';
import { graphEdges } from '../../engine/index.ts';
import { servedPacks } from '../server/helpers.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/docs/site/', import.meta.url));
// The packs as plain `npm start` serves them; every served year is covered in test/server/serving.test.ts.
const { catalog, defaultTaxYear } = servedPacks();
const pages = referencePages(catalog);

test('one generated reference page per calculator and tax year, accepted by the docs build', () => {
  assert.equal(pages.map((page) => page.path), catalog.plans.map((plan) => `/reference/${plan.def.id.replace(/\./g, '-')}/${plan.context.taxYear}`));
  assert.equal(pages.map((page) => page.path).slice(0, 3), ['au-pay-take-home', 'au-pay-withholdings', 'au-income-tax-annual'].map((name) => `/reference/${name}/${defaultTaxYear}`));
  const site = buildDocsSite({ contentDir: `${FIXTURE}content`, navigationFile: `${FIXTURE}navigation.yaml`, generatedPages: pages });
  for (const plan of catalog.plans) {
    const page = site.page(referencePath(plan))!;
    assert.ok(page, referencePath(plan));
    assert.match(page.frontmatter.title, plan.def.id);
  }
});

test('each page lists every rule with its formula, and every parameter value with its period and source', () => {
  for (const plan of catalog.plans) {
    const markdown = pages.find((page) => page.path === referencePath(plan))!.markdown;
    for (const step of plan.steps) {
      assert.ok(markdown.includes(`(\`${step.rule.id}\`)`), `${plan.def.id}: rule ${step.rule.id}`);
      assert.ok(markdown.includes(step.formula), `${plan.def.id}: formula of ${step.rule.id}`);
    }
    for (const parameterId of new Set(plan.steps.flatMap((step) => step.rule.parameters))) {
      const parameter = plan.pack.parameters.find((candidate) => candidate.id === parameterId)!;
      for (const value of parameter.values) {
        assert.ok(markdown.includes(`${value.effectivePeriod.from} to ${value.effectivePeriod.toExclusive ?? 'no end date'}`), `${parameterId} period`);
        const source = plan.pack.sources.find((candidate) => candidate.id === value.source)!;
        assert.ok(markdown.includes(source.reference), `${parameterId} source`);
        for (const row of value.rows ?? []) for (const cell of Object.values(row)) if (cell !== null) assert.ok(markdown.includes(` ${String(cell)} |`), `${parameterId} cell ${String(cell)}`);
        if (value.value !== undefined) assert.ok(markdown.includes(`**${String(value.value)}**`), `${parameterId} value`);
      }
    }
  }
});

test('the Mermaid graph has one labelled arrow per graph edge', () => {
  for (const plan of catalog.plans) {
    const markdown = pages.find((page) => page.path === referencePath(plan))!.markdown;
    const mermaid = markdown.slice(markdown.indexOf('```mermaid'), markdown.indexOf('```', markdown.indexOf('```mermaid') + 3));
    for (const edge of graphEdges(plan)) assert.ok(mermaid.includes(`${edge.from} -->|${edge.ruleId}| ${edge.to}`), `${edge.from} → ${edge.to}`);
    for (const fact of plan.inputFacts) assert.ok(mermaid.includes(`${fact.id}([${fact.id}])`));
  }
});

test('a `/reference/*` navigation entry lists the generated pages not listed by name, in path order', () => {
  const navigation = join(mkdtempSync(join(tmpdir(), 'nav-')), 'navigation.yaml');
  writeFileSync(navigation, `${readFileSync(`${FIXTURE}navigation.yaml`, 'utf8')}    - /reference/*\n`);
  const site = buildDocsSite({ contentDir: `${FIXTURE}content`, navigationFile: navigation, generatedPages: pages, projectRoot: FIXTURE });
  const reference = site.navigation().find((section) => section.path === '/reference')!;
  assert.equal(
    reference.pages.map((page) => page.path),
    ['/reference/glossary', '/reference/limits', ...pages.map((page) => page.path).sort()],
  );
});

test.run();
