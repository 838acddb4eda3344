import { relative, sep } from 'node:path';

/** The contract's pattern for a documentation path, as text (for messages and OpenAPI). */
export const DOCS_PATH_PATTERN_SOURCE = '^/[a-z0-9-]+(/[a-z0-9-]+)*$';

/** The contract's pattern for a documentation path. */
export const DOCS_PATH_PATTERN = new RegExp(DOCS_PATH_PATTERN_SOURCE);

/** The contract's maximum length of a documentation path. */
export const DOCS_PATH_MAX_LENGTH = 256;

/** Whether a string is a well-formed documentation path (pattern and length). */
export function isDocsPath(value: string): boolean {
  return value.length <= DOCS_PATH_MAX_LENGTH && DOCS_PATH_PATTERN.test(value);
}

/**
 * The documentation path of a content file, from its path relative to the content folder:
 * `guides/read-a-trace.md` → `/guides/read-a-trace`, `guides/index.md` → `/guides`.
 * The result is not checked; a root `index.md` gives `/`, which `isDocsPath` rejects.
 */
export function docsPathOfContentFile(contentRelativeFile: string): string {
  const withoutExtension = contentRelativeFile.replace(/\.md$/, '');
  const folderIndex = withoutExtension === 'index' || withoutExtension.endsWith('/index');
  const pagePath = folderIndex ? withoutExtension.slice(0, -'index'.length) : withoutExtension;
  return `/${pagePath.replace(/\/$/, '')}`;
}

/**
 * Where relative links in a generated page are resolved from: as if the page were a content file
 * at `<docs path>.md`, so `../concepts/traces.md` from `/reference/parameters` means the same as it
 * would in `reference/parameters.md`.
 */
export function virtualContentFileOf(docsPath: string): string {
  return `${docsPath.slice(1)}.md`;
}

/** The segments of a documentation path: `/guides/read-a-trace` → `["guides", "read-a-trace"]`. */
export function slugsOf(docsPath: string): string[] {
  return docsPath.split('/').filter((segment) => segment !== '');
}

/** A file system path as a forward-slash path relative to `from`, the form `source` is written in. */
export function relativePosix(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}
