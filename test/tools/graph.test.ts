import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli, suiteRuns } from './cli.ts';

// validate-pack --graph, spawned: the 2025-26 packs in Mermaid, a fixture pack in DOT exactly.
// (Given folders rather than all of rulepacks/, so that adding a year's packs changes nothing here.)

const runs = suiteRuns({
  shipped: () => cli('validate-pack', ['--graph', 'rulepacks/rules-au-income-tax/1.0.0', 'rulepacks/rules-au-pay/1.0.0']),
  dot: () => cli('validate-pack', ['--graph', '--format', 'dot', 'test/fixtures/tool-packs/diff/old', 'test/fixtures/packs/cycle']),
});
test.before(runs.start);

test('the 2025-26 packs, Mermaid: one flowchart, a subgraph per calculator, every kind of node in its own shape and class', async () => {
  const { status, stdout, stderr } = await runs.get('shipped');
  assert.is(status, 0, stderr);
  assert.ok(stdout.startsWith('%% One subgraph per calculator.'), stdout);
  assert.is(stdout.match(/^flowchart LR$/gm)?.length, 1);
  assert.equal(stdout.match(/^ {2}subgraph c\d+ \["[^"]+"\]$/gm), [
    '  subgraph c1 ["au.income-tax.annual: Annual income tax (rules-au-income-tax/1.0.0, AU 2025-26)"]',
    '  subgraph c2 ["au.pay.take-home: Take-home pay (rules-au-pay/1.0.0, AU 2025-26)"]',
    '  subgraph c3 ["au.pay.withholdings: Pay withholdings (rules-au-pay/1.0.0, AU 2025-26)"]',
  ]);
  for (const kind of ['input', 'derived', 'output', 'parameter', 'rule']) assert.match(stdout, new RegExp(`^  classDef ${kind} `, 'm'));
  for (const line of [
    'c2_i1[/"grossPay<br/>Gross pay for one pay period"/]:::input',
    'c2_r3{{"taxable-pay<br/>Taxable pay"}}:::rule',
    'c2_o4("taxablePay<br/>Taxable pay for the period"):::output',
    'c2_p6[("withholding-scale-1<br/>2024-07-01 to before 2026-07-01")]:::parameter',
    'c3_d4("taxablePay<br/>Taxable pay for the period"):::derived',
    'c2_p6 -.-> c2_r5',
    'c2_r5 --> c2_o8',
  ]) {
    assert.ok(stdout.includes(`    ${line}\n`), line);
  }
  assert.is(stdout.match(/^ {2}end$/gm)?.length, 3);
});

test('DOT: a cluster per calculator, exactly; a pack with diagnostics is named on stderr and exits 1', async () => {
  const { status, stdout, stderr } = await runs.get('dot');
  assert.is(status, 1);
  assert.match(stderr, /pack fixture-pay\/1\.0\.0 has 1 diagnostic\(s\), so its calculators are not drawn/);
  const body = stdout.split('\n').filter((line) => !line.startsWith('//')).join('\n');
  assert.is(
    body,
    `digraph packs {
  rankdir=LR;
  node [fontname="Helvetica", style=filled];
  subgraph cluster_c1 {
    label="fixture.pay.net: Fixture net pay (fixture-pay/1.0.0, AU 2025-26)";
    c1_i1 [label="grossPay\\nGross pay for the period", shape=parallelogram, fillcolor="#e3f2fd", color="#1565c0", class="input"];
    c1_r2 [label="levy\\nLevy", shape=hexagon, fillcolor="#f3e5f5", color="#6a1b9a", class="rule"];
    c1_p3 [label="levy-rate\\nfrom 2025-07-01", shape=cylinder, fillcolor="#fff8e1", color="#ff8f00", class="parameter"];
    c1_o4 [label="levy\\nLevy on the pay", shape=box, style="rounded,filled,bold", penwidth=3, fillcolor="#dcedc8", color="#33691e", class="output"];
    c1_r5 [label="net-pay\\nPay after the levy", shape=hexagon, fillcolor="#f3e5f5", color="#6a1b9a", class="rule"];
    c1_o6 [label="netPay\\nPay after the levy", shape=box, style="rounded,filled,bold", penwidth=3, fillcolor="#dcedc8", color="#33691e", class="output"];
    c1_i1 -> c1_r2;
    c1_p3 -> c1_r2 [style=dashed];
    c1_r2 -> c1_o4;
    c1_i1 -> c1_r5;
    c1_o4 -> c1_r5;
    c1_r5 -> c1_o6;
  }
}
`,
  );
});

test.run();
