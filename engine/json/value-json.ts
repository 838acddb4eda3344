import type { Value } from '../expressions/values.ts';
import type { Decimal } from '../money/decimal.ts';
import type { FactShape } from '../model/pack.ts';
import { centsNumber } from '../contract/fact-shapes.ts';
import { asciiBytes, CLOSE_BRACE, QUOTE, type JsonBytes } from './json-bytes.ts';
import { jsonText as text } from './json-text.ts';

/** Writes one value of a fact shape as JSON. */
export type ValueWriter = (out: JsonBytes, value: Value) => void;

const TRUE = asciiBytes('true');
const FALSE = asciiBytes('false');

/** Writes a value of a fact shape as JSON, exactly as the object encoders would serialise. */
export function jsonWriterOf(shape: FactShape, currency: string): ValueWriter {
  switch (shape.type) {
    case 'money': {
      const head = asciiBytes('{"_tag":"Money","cents":');
      const tail = asciiBytes(`,"currency":${text(currency)}}`);
      return (out, value) => {
        out.piece(head);
        out.integer(centsNumber(value as Decimal));
        out.piece(tail);
      };
    }
    case 'ratio':
      return (out, value) => writeDecimal(out, value as Decimal);
    case 'count':
      return (out, value) => out.ascii(String((value as Decimal).toNumber()));
    case 'boolean':
      return (out, value) => out.piece(value ? TRUE : FALSE);
    case 'selection': {
      // Decoded facts are among the options, so each option's text is encoded once, with the plan.
      const options = new Map(shape.options.map((option) => [option, asciiBytes(text(option))]));
      return (out, value) => {
        const option = options.get(value as string);
        if (option) out.piece(option);
        else out.ascii(text(value));
      };
    }
    case 'date':
      // A decoded date is digits and hyphens, which JSON does not escape.
      return (out, value) => {
        out.byte(QUOTE);
        out.ascii(value as string);
        out.byte(QUOTE);
      };
    case 'record': {
      const fields = Object.entries(shape.fields).map(([name, field]) => [asciiBytes(`,${text(name)}:`), name, jsonWriterOf(field, currency)] as const);
      const head = asciiBytes(`{"_tag":${text(shape.tag)}`);
      return (out, value) => {
        out.piece(head);
        for (const [key, name, write] of fields) {
          out.piece(key);
          write(out, (value as Record<string, Value>)[name]!);
        }
        out.byte(CLOSE_BRACE);
      };
    }
  }
}

/**
 * A decimal as a JSON string. Its text is digits, a sign, a point and an exponent, none of which
 * JSON escapes, so it is quoted as it is: reports write many, and escaping each costs a measurable
 * share of a traced calculation (bench/README.md, "Figures behind the code").
 */
export function writeDecimal(out: JsonBytes, value: Decimal): void {
  out.byte(QUOTE);
  out.ascii(value.toString());
  out.byte(QUOTE);
}
