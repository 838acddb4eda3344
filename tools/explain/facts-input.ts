import { readFileSync } from 'node:fs';

/** The facts object, or why it could not be read (a usage problem). */
export type FactsInput = { ok: true; facts: unknown } | { ok: false; problem: string };

/**
 * Reads `--facts`: JSON written inline (it starts with `{`), `-` for standard input, or a file path.
 * Whether the JSON is the right shape is the calculator's business, not this function's.
 */
export function readFacts(argument: string): FactsInput {
  const inline = argument.trimStart().startsWith('{');
  let text: string;
  try {
    text = inline ? argument : readFileSync(argument === '-' ? 0 : argument, 'utf8');
  } catch {
    return { ok: false, problem: `cannot read the facts file \`${argument}\`` };
  }
  try {
    return { ok: true, facts: JSON.parse(text) };
  } catch (error) {
    const where = inline ? 'the --facts value' : argument === '-' ? 'standard input' : `\`${argument}\``;
    return { ok: false, problem: `${where} is not valid JSON (${(error as Error).message})` };
  }
}
