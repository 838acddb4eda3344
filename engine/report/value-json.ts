import type { Value } from '../expressions/values.ts';
import type { Decimal } from '../money/decimal.ts';
import type { FactShape } from '../model/pack.ts';
import { centsNumber } from '../run/shapes.ts';
import { decimalText, jsonText as text } from './json-text.ts';

/** Writes a value of a fact shape as JSON text, exactly as the object encoders would serialise. */
export function jsonWriterOf(shape: FactShape, currency: string): (value: Value) => string {
  switch (shape.type) {
    case 'money': {
      const tail = `,"currency":${text(currency)}}`;
      return (value) => `{"_tag":"Money","cents":${centsNumber(value as Decimal)}${tail}`;
    }
    case 'ratio':
      return (value) => decimalText(value as Decimal);
    case 'count':
      return (value) => String((value as Decimal).toNumber());
    case 'boolean':
      return (value) => (value ? 'true' : 'false');
    case 'selection': {
      // Decoded facts are among the options, so each option's text is written once, with the plan.
      const texts = new Map(shape.options.map((option) => [option, text(option)]));
      return (value) => texts.get(value as string) ?? text(value);
    }
    case 'record': {
      const fields = Object.entries(shape.fields).map(([name, field]) => [`,${text(name)}:`, name, jsonWriterOf(field, currency)] as const);
      const head = `{"_tag":${text(shape.tag)}`;
      return (value) => {
        let out = head;
        for (const [key, name, write] of fields) out += key + write((value as Record<string, Value>)[name]!);
        return `${out}}`;
      };
    }
  }
}

