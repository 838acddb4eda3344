import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { docsPathOfContentFile, relativePosix, virtualContentFileOf } from './paths.ts';

/** A page produced by code (for example from rule packs) rather than written in the content folder. */
export interface GeneratedPage {
  /** The docs path to serve it at, e.g. `/reference/parameters`. */
  readonly path: string;
  /** Where it came from, served as the page's `source` and named in problems. */
  readonly source: string;
  /** The page text, YAML frontmatter included, as a content file would hold it. */
  readonly markdown: string;
}

/** A page's text and origin, before anything about it is checked. */
export interface PageSource {
  /** Served as the page's `source` and named in every problem about it. */
  readonly source: string;
  /** The docs path the page claims (not yet validated). */
  readonly path: string;
  /** The content-relative file that relative links in the page are resolved from. */
  readonly linkBase: string;
  readonly text: string;
}

/** Every `.md` file under the content folder, in a stable order, with its docs path and source. */
export function readContentFolder(contentDir: string, projectRoot: string): PageSource[] {
  return markdownFilesUnder(contentDir).map((contentRelative) => ({
    source: relativePosix(projectRoot, join(contentDir, contentRelative)),
    path: docsPathOfContentFile(contentRelative),
    linkBase: contentRelative,
    text: withoutByteOrderMark(readFileSync(join(contentDir, contentRelative), 'utf8')),
  }));
}

/** Generated pages in the same form as content files. */
export function fromGeneratedPages(pages: readonly GeneratedPage[]): PageSource[] {
  return pages.map((page) => ({
    source: page.source,
    path: page.path,
    linkBase: virtualContentFileOf(page.path),
    text: withoutByteOrderMark(page.markdown),
  }));
}

/** The nearest folder at or above `start` holding a package.json, which `source` paths are relative to. */
export function findProjectRoot(start: string): string {
  for (let folder = resolve(start); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) return process.cwd();
  }
}

// Content-relative, forward-slash paths, sorted so builds (and error lists) are deterministic.
// Dot-folders and dot-files are editor and tool litter, not pages.
function markdownFilesUnder(contentDir: string, prefix = ''): string[] {
  const entries = readdirSync(join(contentDir, prefix), { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((entry) => {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return markdownFilesUnder(contentDir, relative);
    return entry.isFile() && entry.name.endsWith('.md') ? [relative] : [];
  });
}

// A byte order mark would hide the opening `---` of the frontmatter from the parser.
function withoutByteOrderMark(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
