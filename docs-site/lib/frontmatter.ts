import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import type { DocsProblem } from './problems.ts';

/** The contract's documentation page types. */
export const PAGE_TYPES = [
  'api reference overview',
  'changelog or release note',
  'concept',
  'contribution guide',
  'decision page',
  'guide',
  'quickstart',
  'reference',
  'section index',
  'troubleshooting',
] as const;

/** The contract's primary readers of a documentation page. */
export const PRIMARY_READERS = [
  'API consumer',
  'Application integrator',
  'Correctness reviewer',
  'Documentation contributor',
  'New contributor',
  'SDK evaluator',
  'Type-safety focused developer',
] as const;

/** Page statuses; only `published` pages are served, listed or searched. */
export const PAGE_STATUSES = ['published', 'draft'] as const;

/** A documentation page type. */
export type PageType = (typeof PAGE_TYPES)[number];
/** A documentation page's primary reader. */
export type PrimaryReader = (typeof PRIMARY_READERS)[number];
/** A documentation page's status. */
export type PageStatus = (typeof PAGE_STATUSES)[number];

/** The validated frontmatter of a content page. */
export interface PageFrontmatter {
  readonly title: string;
  readonly description: string;
  readonly status: PageStatus;
  readonly pageType: PageType;
  readonly primaryReader: PrimaryReader;
}

type FieldName = keyof PageFrontmatter;

// Every field is required; fields with a closed set of values list them here.
const FIELDS: Readonly<Record<FieldName, readonly string[] | undefined>> = {
  title: undefined,
  description: undefined,
  status: PAGE_STATUSES,
  pageType: PAGE_TYPES,
  primaryReader: PRIMARY_READERS,
};
const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

/** Outcome of reading frontmatter: the fields when valid, and every problem found. */
export interface FrontmatterReading {
  readonly frontmatter?: PageFrontmatter;
  readonly problems: DocsProblem[];
}

/**
 * Parses and validates a page's YAML frontmatter. Strict on purpose: unknown and repeated fields are
 * problems too, so a misspelt field is reported instead of silently ignored.
 *
 * @param yamlText the text between the `---` fences
 * @param file the page's source, named in every problem
 * @param firstLine the file line on which `yamlText` starts, so problems cite file lines
 */
export function readFrontmatter(yamlText: string, file: string, firstLine: number): FrontmatterReading {
  const lineCounter = new LineCounter();
  // Duplicate keys are found below rather than by the YAML parser, so the message can name the field.
  const document = parseDocument(yamlText, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const lineAt = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : firstLine + lineCounter.linePos(offset).line - 1;
  const problems: DocsProblem[] = [];
  const report = (message: string, offset?: number): void => {
    const line = lineAt(offset);
    problems.push(line === undefined ? { file, message } : { file, line, message });
  };

  if (document.errors.length > 0) {
    for (const error of document.errors) report(`frontmatter is not valid YAML: ${error.message}`, error.pos[0]);
    return { problems };
  }
  const contents = document.contents;
  if (!isMap(contents)) {
    report(`frontmatter must be a mapping with the fields ${FIELD_NAMES.join(', ')}`);
    return { problems };
  }

  const values = new Map<FieldName, string>();
  const seen = new Set<string>();
  for (const item of contents.items) {
    const keyOffset = isScalar(item.key) ? item.key.range?.[0] : undefined;
    const key = isScalar(item.key) ? item.key.value : undefined;
    if (typeof key !== 'string' || !isFieldName(key)) {
      report(`frontmatter field \`${String(key)}\` is not allowed; the fields are ${FIELD_NAMES.join(', ')}`, keyOffset);
      continue;
    }
    if (seen.has(key)) {
      report(`frontmatter field \`${key}\` is given more than once`, keyOffset);
      continue;
    }
    seen.add(key);
    const value = isScalar(item.value) ? item.value.value : undefined;
    const problem = fieldProblem(key, value);
    if (problem === undefined) values.set(key, value as string);
    else report(`frontmatter field \`${key}\` ${problem}`, keyOffset);
  }
  for (const name of FIELD_NAMES) {
    if (!seen.has(name)) report(`frontmatter field \`${name}\` is required`);
  }
  if (problems.length > 0) return { problems };

  return {
    frontmatter: {
      title: values.get('title') as string,
      description: values.get('description') as string,
      status: values.get('status') as PageStatus,
      pageType: values.get('pageType') as PageType,
      primaryReader: values.get('primaryReader') as PrimaryReader,
    },
    problems,
  };
}

function isFieldName(key: string): key is FieldName {
  return Object.hasOwn(FIELDS, key);
}

// Says what is wrong with a field's value, never echoing it (titles can be long; the line is cited).
function fieldProblem(name: FieldName, value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string (quote it if YAML reads it as another type)';
  if (value.trim() === '') return 'must not be empty';
  if (value.trim() !== value) return 'must not start or end with whitespace';
  const allowed = FIELDS[name];
  if (allowed !== undefined && !allowed.includes(value)) {
    return `must be one of ${allowed.map((v) => `\`${v}\``).join(', ')}`;
  }
  return undefined;
}
