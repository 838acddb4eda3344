import type { SourceRef } from '../contract/shapes.ts';
import { RowValue, TableValue, type ResolvedParameter, type Value } from '../expressions/values.ts';
import { asciiBytes, CLOSE_BRACE, COMMA, type JsonBytes } from '../json/json-bytes.ts';
import { jsonText as text } from '../json/json-text.ts';
import { writeDecimal } from '../json/value-json.ts';
import { compareDecimals, isDecimal } from '../money/decimal.ts';
import type { ReportRun, StepRecord } from './record.ts';
import type { TraceText } from './text.ts';

/** What a trace node is written from: the parts of a plan's step the trace reads. */
export interface TracedStep {
  inputSlots: readonly number[];
  outputSlot: number;
  parameters: readonly ResolvedParameter[];
  ruleSources: readonly SourceRef[];
  /** Steps that provide this step's derived inputs, in the order of its rule's `requires`. */
  childSteps: readonly number[];
  /** What its trace node says that is the same on every run, as JSON text. */
  traceText: TraceText;
}

/** What a report is written from: the plan's steps and its compiled report template. */
export interface TracedPlan {
  steps: readonly TracedStep[];
  writeReport: (run: ReportRun, out: JsonBytes) => void;
}

const PARAMETERS = asciiBytes('},"parameters":{');
const INTERMEDIATE = asciiBytes(',"intermediate":{');
const BEFORE_ROUNDING = asciiBytes(',"beforeRounding":');
const RESULT = asciiBytes('},"result":');
const CHILDREN = asciiBytes(',"children":[');
const NODE_END = asciiBytes(']}');

/**
 * Writes the report of a run as JSON: the one form a report takes, for the service and the tools
 * alike (whoever wants objects parses it). Written from bytes prepared with the plan; a trace node
 * the report refers to again is copied from where it was first written. The shapes are the
 * contract's (`CONTRACT_SCHEMAS`).
 */
export function writeReport(plan: TracedPlan, values: readonly Value[], records: readonly StepRecord[], out: JsonBytes): void {
  plan.writeReport(new ReportWriting(plan, values, records, out), out);
}

/** One report being written: its run, and where each step's trace node went (a class, not closures made per report). */
class ReportWriting implements ReportRun {
  /** Start and end of each step's trace node, by step index, once written. */
  private readonly written: number[];

  constructor(
    private readonly plan: TracedPlan,
    readonly values: readonly Value[],
    readonly records: readonly StepRecord[],
    private readonly out: JsonBytes,
  ) {
    this.written = new Array(plan.steps.length * 2);
  }

  trace(index: number): void {
    const start = this.written[index * 2];
    if (start !== undefined) return this.out.again(start, this.written[index * 2 + 1]!);
    const at = this.out.length;
    writeTraceNode(this.plan.steps[index]!, this.values, this.records[index]!, this, this.out);
    this.written[index * 2] = at;
    this.written[index * 2 + 1] = this.out.length;
  }
}

function writeTraceNode(step: TracedStep, values: readonly Value[], record: StepRecord, run: ReportRun, out: JsonBytes): void {
  const parts = step.traceText;
  out.piece(parts.head);
  for (let index = 0; index < parts.facts.length; index++) {
    const fact = parts.facts[index]!;
    out.piece(fact.key);
    fact.write(out, values[step.inputSlots[index]!]!);
  }
  out.piece(PARAMETERS);
  writeParameterEntries(step, record.reads, out);
  out.byte(CLOSE_BRACE);
  let intermediates = 0;
  const lets = record.lets;
  for (let slot = 0; slot < lets.length; slot++) {
    const value = lets[slot];
    if (value === undefined || value instanceof TableValue || value instanceof RowValue) continue;
    if (intermediates++ === 0) out.piece(INTERMEDIATE);
    else out.byte(COMMA);
    out.piece(parts.letKeys[slot]!);
    if (isDecimal(value)) writeDecimal(out, value);
    else out.ascii(text(value));
  }
  if (intermediates > 0) out.byte(CLOSE_BRACE);
  const result = values[step.outputSlot]!;
  if (isDecimal(record.raw) && isDecimal(result) && compareDecimals(record.raw, result) !== 0) {
    out.piece(BEFORE_ROUNDING);
    writeDecimal(out, record.raw);
  }
  out.piece(RESULT);
  parts.result(out, result);
  out.piece(parts.rounding);
  out.piece(sourcesJson(step, record));
  out.piece(CHILDREN);
  for (let index = 0; index < step.childSteps.length; index++) {
    if (index > 0) out.byte(COMMA);
    run.trace(step.childSteps[index]!);
  }
  out.piece(NODE_END);
}

/**
 * Writes the `parameters` entries of a trace node. As with object keys, the first read of a
 * parameter fixes its position and the last read gives its entry. A rule reads a handful of values,
 * so the reads are scanned again rather than gathered in a map, which every node of every report
 * would allocate.
 */
export function writeParameterEntries(step: TracedStep, reads: StepRecord['reads'], out: JsonBytes): void {
  const parts = step.traceText;
  let entries = 0;
  next: for (let index = 0; index < reads.length; index++) {
    const id = step.parameters[reads[index]!.parameterIndex]!.id;
    for (let earlier = 0; earlier < index; earlier++) if (step.parameters[reads[earlier]!.parameterIndex]!.id === id) continue next;
    let last = index;
    for (let later = index + 1; later < reads.length; later++) if (step.parameters[reads[later]!.parameterIndex]!.id === id) last = later;
    const read = reads[last]!;
    if (entries++ > 0) out.byte(COMMA);
    out.piece(read.row ? parts.rows[read.parameterIndex]![read.row.index]! : parts.parameters[read.parameterIndex]!);
  }
}

/** The step's sources: its rule's, then those of the parameter values it read that the rule does not already cite. */
function sourcesJson(step: TracedStep, record: StepRecord): Uint8Array {
  let sources: readonly SourceRef[] = step.ruleSources;
  // The ids of the sources added, joined: what the JSON of these sources is remembered by.
  let key = '';
  for (const read of record.reads) {
    const parameter = step.parameters[read.parameterIndex]!;
    if (!cites(sources, parameter.source)) {
      sources = [...sources, parameter.source];
      key += `${key ? '|' : ''}${parameter.sourceId}`;
    }
  }
  let json = step.traceText.sources.get(key);
  if (json === undefined) {
    json = asciiBytes(text(sources));
    step.traceText.sources.set(key, json);
  }
  return json;
}

/** Whether the list has this source: the same one, or one with its kind, reference and title. */
function cites(sources: readonly SourceRef[], wanted: SourceRef): boolean {
  for (const source of sources) {
    if (source === wanted || (source.kind === wanted.kind && source.reference === wanted.reference && source.title === wanted.title)) return true;
  }
  return false;
}
