import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { buildDocsSite, DocsBuildError, type DocsSite, type GeneratedPage } from '../../docs-site/index.ts';

/** Absolute path of a file or folder under test/fixtures/docs. */
export function fixture(relative: string): string {
  return fileURLToPath(new URL(`../fixtures/docs/${relative}`, import.meta.url));
}

/** The valid fixture site, optionally with another navigation file or extra generated pages. */
export function buildFixtureSite(navigation = 'site/navigation.yaml', generatedPages: GeneratedPage[] = []): DocsSite {
  return buildDocsSite({ contentDir: fixture('site/content'), navigationFile: fixture(navigation), generatedPages });
}

/** Runs a build that must fail and returns its error, so tests can inspect every problem. */
export function buildError(build: () => unknown): DocsBuildError {
  try {
    build();
  } catch (error) {
    assert.ok(error instanceof DocsBuildError, `expected a DocsBuildError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the build to fail');
}

/** A fixture folder's content built with its own navigation file, expected to fail. */
export function fixtureBuildError(folder: string): DocsBuildError {
  return buildError(() => buildDocsSite({ contentDir: fixture(`${folder}/content`), navigationFile: fixture(`${folder}/navigation.yaml`) }));
}

/** Page text with valid frontmatter, each field overridable (`null` leaves the field out). */
export function pageText(body: string, fields: Record<string, string | null> = {}): string {
  const defaults: Record<string, string> = {
    title: 'Generated page',
    description: 'A page made by a test.',
    status: 'published',
    pageType: 'reference',
    primaryReader: 'Correctness reviewer',
  };
  const lines = Object.entries({ ...defaults, ...fields })
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([key, value]) => `${key}: ${value}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}

/** The value, or a test failure saying what was missing (narrows away `undefined`). */
export function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) assert.fail(`missing: ${what}`);
  return value;
}
