import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { checkPackFile } from './schemas.ts';
import { yamlParser, type YamlStore } from './stored-yaml.ts';
import type { Diagnostic, SourceLocation } from '../model/diagnostics.ts';

/** The file at the top of a rule-packs folder that says which tax years are offered when nothing else is said. */
export const SERVING_FILE = 'serving.yaml';

/** The tax years offered by default, the one a request without a tax year gets, and the calculators offered only on request. */
export interface ServingDefaults {
  /** The file they were read from, as displayed in messages. */
  file: string;
  taxYears: string[];
  defaultTaxYear: string;
  /** Calculators served only when an operator asks for them, by id; none when the file names none. */
  calculatorsOnRequest: string[];
  /** Where a value is written in the file: an entry of `taxYears` or `calculatorsOnRequest` by index, or `defaultTaxYear`. */
  locate(key: 'taxYears' | 'defaultTaxYear' | 'calculatorsOnRequest', index?: number): SourceLocation;
}

/**
 * Reads the serving file of the first given folder that holds one. No file in any of them means no
 * defaults (and no problem); a file with problems gives its diagnostics and no defaults.
 */
export function readServingDefaults(paths: readonly string[], options: { displayRoot?: string } & YamlStore = {}): { defaults?: ServingDefaults; diagnostics: Diagnostic[] } {
  const file = paths.map((path) => join(resolve(path), SERVING_FILE)).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (!file) return { diagnostics: [] };
  const shown = relative(options.displayRoot ?? process.cwd(), file);
  const display = shown.startsWith('..') ? file : shown;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { diagnostics: [{ kind: 'parse', message: 'the file cannot be read', location: { file: display, line: 1, column: 1 } }] };
  }
  const parsed = yamlParser(options)(display, text);
  if (parsed.diagnostics.length > 0) return { diagnostics: parsed.diagnostics };
  const problems = checkPackFile('serving', parsed.value);
  if (problems.length > 0) {
    return { diagnostics: problems.map((problem) => ({ kind: 'schema', message: problem.message, location: parsed.locate(problem.path, { key: problem.atKey }) })) };
  }
  const { taxYears, defaultTaxYear, calculatorsOnRequest = [] } = parsed.value as { taxYears: string[]; defaultTaxYear: string; calculatorsOnRequest?: string[] };
  const locate: ServingDefaults['locate'] = (key, index) => parsed.locate(index === undefined ? [key] : [key, index]);
  if (!taxYears.includes(defaultTaxYear)) {
    return {
      diagnostics: [{ kind: 'value', message: `\`defaultTaxYear\` must be one of \`taxYears\` (${taxYears.join(', ')}): a request without a tax year must get a year that is served`, location: locate('defaultTaxYear') }],
    };
  }
  return { defaults: { file: display, taxYears, defaultTaxYear, calculatorsOnRequest, locate }, diagnostics: [] };
}
