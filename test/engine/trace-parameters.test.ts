import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ParameterRead, TableRow } from '../../engine/expressions/values.ts';
import { JsonBytes } from '../../engine/json/json-bytes.ts';
import { writeParameterEntries } from '../../engine/trace/write.ts';
import type { PlanStep } from '../../engine/run/plan.ts';

// A trace node's `parameters` object holds one entry per parameter the rule read. As with keys of a
// JSON object assigned in turn, the first read of a parameter fixes its position and the last read
// gives its entry (for a table, the row matched last).

/** A step whose parameter `id` is written `"id":…` and, for a table, `"id":row n` by row index. */
function stepWith(ids: string[]): PlanStep {
  return {
    parameters: ids.map((id) => ({ id })),
    traceText: {
      parameters: ids.map((id) => Buffer.from(`"${id}":value`)),
      rows: ids.map((id) => [0, 1, 2, 3].map((row) => Buffer.from(`"${id}":row ${row}`))),
    },
  } as unknown as PlanStep;
}
/** The entries written for these reads, as text. */
function parameterEntries(step: PlanStep, reads: ParameterRead[]): string {
  const out = new JsonBytes();
  writeParameterEntries(step, reads, out);
  return out.bytes().toString();
}

const read = (parameterIndex: number, row?: number): ParameterRead => (row === undefined ? { parameterIndex } : { parameterIndex, row: { index: row } as TableRow });

test('each parameter read once: in the order read', () => {
  assert.is(parameterEntries(stepWith(['rates', 'threshold']), [read(1), read(0, 2)]), '"threshold":value,"rates":row 2');
});

test('a parameter read again keeps its first position and takes its last entry', () => {
  const step = stepWith(['rates', 'threshold', 'cap']);
  assert.is(parameterEntries(step, [read(0, 1), read(1), read(0, 3), read(2), read(0, 2)]), '"rates":row 2,"threshold":value,"cap":value');
});

test('no reads: no entries', () => {
  assert.is(parameterEntries(stepWith(['rates']), []), '');
});

test.run();
