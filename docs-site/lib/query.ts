import { DOCS_PATH_MAX_LENGTH, DOCS_PATH_PATTERN, DOCS_PATH_PATTERN_SOURCE } from './paths.ts';

/** The query parameters of the documentation routes. */
export type DocsQueryParameter = 'path' | 'term';

/** The contract's length limits of the documentation query parameters, in characters. */
export const DOCS_QUERY_LIMITS: Readonly<Record<DocsQueryParameter, { readonly minLength: number; readonly maxLength: number }>> = {
  path: { minLength: 1, maxLength: DOCS_PATH_MAX_LENGTH },
  term: { minLength: 1, maxLength: 100 },
};

/**
 * Checks one documentation query value as the router received it (a string, an array when the
 * parameter was repeated, or undefined when absent). Returns null when valid, otherwise a message
 * naming the parameter and the rule it broke, and never the value itself: the value came from the
 * client and could be anything, including markup or a secret pasted by mistake.
 */
export function checkDocsQuery(parameter: DocsQueryParameter, value: unknown): string | null {
  const name = `Query parameter \`${parameter}\``;
  if (value === undefined || value === null) return `${name} is required.`;
  if (Array.isArray(value)) return `${name} must be given only once.`;
  if (typeof value !== 'string') return `${name} must be a string.`;

  // Counted in code points, as JSON Schema's maxLength (and so the OpenAPI description) counts.
  const { minLength, maxLength } = DOCS_QUERY_LIMITS[parameter];
  const length = [...value].length;
  if (length < minLength || length > maxLength) return `${name} must be ${minLength} to ${maxLength} characters.`;

  if (parameter === 'path' && !DOCS_PATH_PATTERN.test(value)) return `${name} must match ${DOCS_PATH_PATTERN_SOURCE}.`;
  if (parameter === 'term' && /^\s|\s$/u.test(value)) return `${name} must not start or end with whitespace.`;
  return null;
}
