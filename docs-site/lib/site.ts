import { existsSync, readFileSync } from 'node:fs';
import type { Root } from 'mdast';
import { findProjectRoot, fromGeneratedPages, readContentFolder, type GeneratedPage, type PageSource } from './content.ts';
import { readFrontmatter, type PageFrontmatter } from './frontmatter.ts';
import { resolveLink } from './links.ts';
import { mayContainMdx, parseCommonMark, parseMdx } from './markdown.ts';
import { readNavigation } from './navigation.ts';
import { DOCS_PATH_MAX_LENGTH, DOCS_PATH_PATTERN_SOURCE, isDocsPath, relativePosix, slugsOf } from './paths.ts';
import { wordsOf, type PageWords } from './plain-text.ts';
import { DocsBuildError, type DocsProblem } from './problems.ts';
import { renderMarkdown, type LinkDecision } from './render.ts';
import { indexDocsSearch, type SearchablePage } from './search.ts';
import { docsInputsDigest, openDocsSite, storeDocsSite, type DocsSite, type DocsSiteSnapshot, type StoredDocsSnapshot } from './snapshot.ts';
import type { DocsPage, NavigationPageItem } from './contract.ts';
import { renderPageHtml } from './html.ts';

/** Where the documentation comes from. */
export interface DocsSiteOptions {
  /** Folder of `.md` content pages; a page's path inside it gives its docs path. */
  readonly contentDir: string;
  /** The YAML navigation file. */
  readonly navigationFile: string;
  /** Pages made by code, served like content pages. */
  readonly generatedPages?: readonly GeneratedPage[];
  /** Folder that `source` paths are relative to; by default the nearest one above `contentDir` with a package.json. */
  readonly projectRoot?: string;
  /** Where the interactive API reference is served, linked from every HTML page when given. */
  readonly apiReferenceUrl?: string;
}

interface CheckedPage {
  readonly origin: PageSource;
  readonly tree: Root;
  readonly frontmatter: PageFrontmatter;
}

/** Reads, checks, renders and indexes all documentation, ready to serve; see `compileDocsSite`. */
export function buildDocsSite(options: DocsSiteOptions): DocsSite {
  return openDocsSite(compileDocsSite(options));
}

/** Compiles a site into the form a build stores, with the digest of what it was compiled from. */
export function compileStoredDocsSite(options: Required<DocsSiteOptions>): StoredDocsSnapshot {
  return { inputs: docsInputsDigest(options), site: storeDocsSite(compileDocsSite(options)) };
}

/**
 * Reads, checks, renders and indexes all documentation once, into plain data that a build can store
 * and `openDocsSite` serves. Throws a `DocsBuildError` listing every
 * problem of the first phase that has any: first the pages themselves (paths, frontmatter), then
 * what depends on the set of pages (links between pages, MDX syntax, the navigation). Checking links
 * only once every page is known avoids reporting links to a page whose own frontmatter is broken.
 */
export function compileDocsSite(options: DocsSiteOptions): DocsSiteSnapshot {
  const projectRoot = options.projectRoot ?? findProjectRoot(options.contentDir);
  const pages = checkPages(readSources(options, projectRoot));
  const published = pages.filter((page) => page.frontmatter.status === 'published');
  const drafts = new Set(pages.filter((page) => page.frontmatter.status === 'draft').map((page) => page.origin.path));
  const publishedPaths = new Set(published.map((page) => page.origin.path));

  const problems: DocsProblem[] = [];
  const served = new Map<string, DocsPage>();
  const searchable: SearchablePage[] = [];
  for (const page of published) {
    const rendered = renderPage(page, publishedPaths, drafts);
    problems.push(...rendered.problems);
    if (rendered.page === undefined) continue;
    served.set(page.origin.path, rendered.page);
    searchable.push({ path: page.origin.path, title: page.frontmatter.title, description: page.frontmatter.description, text: rendered.words.all, excerptText: rendered.words.prose });
  }

  const navigationName = relativePosix(projectRoot, options.navigationFile);
  const navigation = existsSync(options.navigationFile)
    ? readNavigation(readFileSync(options.navigationFile, 'utf8'), navigationName, {
        published: new Map(published.map((page) => [page.origin.path, navigationItemOf(page)])),
        drafts,
      })
    : { items: [], problems: [{ file: navigationName, message: 'navigation file not found' }] };
  problems.push(...navigation.problems);
  if (problems.length > 0) throw new DocsBuildError(problems);

  // The HTML is rendered here, from the served Markdown, so that a stored snapshot holds it and a
  // boot loads no HTML toolchain; it about doubles the time this function takes.
  const html = {
    pages: [...served.values()].map((page) => ({ path: page.path, mainHtml: renderPageHtml(page.markdown, publishedPaths) })),
    ...(options.apiReferenceUrl === undefined ? {} : { apiReferenceUrl: options.apiReferenceUrl }),
  };
  return { navigation: navigation.items, pages: [...served.values()], search: indexDocsSearch(searchable), html };
}

function readSources(options: DocsSiteOptions, projectRoot: string): PageSource[] {
  if (!existsSync(options.contentDir)) {
    throw new DocsBuildError([{ file: relativePosix(projectRoot, options.contentDir), message: 'content folder not found' }]);
  }
  return [...readContentFolder(options.contentDir, projectRoot), ...fromGeneratedPages(options.generatedPages ?? [])];
}

// Phase one: every page on its own (its docs path and frontmatter), plus paths claimed twice.
function checkPages(sources: readonly PageSource[]): CheckedPage[] {
  const problems: DocsProblem[] = [];
  const claimedBy = new Map<string, string>();
  const checked: CheckedPage[] = [];
  for (const origin of sources) {
    if (!isDocsPath(origin.path)) {
      problems.push({
        file: origin.source,
        message: `docs path must match ${DOCS_PATH_PATTERN_SOURCE} and be at most ${DOCS_PATH_MAX_LENGTH} characters; name files and folders with lower-case letters, digits and hyphens (a root index.md has no docs path)`,
      });
    }
    const firstClaim = claimedBy.get(origin.path);
    if (firstClaim !== undefined) problems.push({ file: origin.source, message: `docs path ${origin.path} is already taken by ${firstClaim}` });
    else claimedBy.set(origin.path, origin.source);

    const tree = parseCommonMark(origin.text);
    const yaml = tree.children[0];
    if (yaml?.type !== 'yaml' || yaml.position === undefined) {
      problems.push({ file: origin.source, line: 1, message: 'page must start with YAML frontmatter between `---` lines' });
      continue;
    }
    const reading = readFrontmatter(yaml.value, origin.source, yaml.position.start.line + 1);
    problems.push(...reading.problems);
    if (reading.frontmatter !== undefined) checked.push({ origin, tree, frontmatter: reading.frontmatter });
  }
  if (problems.length > 0) throw new DocsBuildError(problems);
  return checked;
}

// Phase two, for one published page: MDX syntax, links, and the served Markdown and plain text.
function renderPage(
  page: CheckedPage,
  publishedPaths: ReadonlySet<string>,
  drafts: ReadonlySet<string>,
): { page?: DocsPage; words: PageWords; problems: DocsProblem[] } {
  const { origin, frontmatter } = page;
  let tree = page.tree;
  if (mayContainMdx(tree)) {
    const parsed = parseMdx(origin.text, origin.source);
    if ('problem' in parsed) return { words: { all: '', prose: '' }, problems: [parsed.problem] };
    tree = parsed.tree;
  }

  const decide = (url: string): LinkDecision => {
    const target = resolveLink(url, origin.linkBase);
    if (target.kind === 'untouched') return { action: 'keep' };
    if (target.kind === 'invalid') return { action: 'broken', reason: target.reason };
    if (!publishedPaths.has(target.path)) {
      const why = drafts.has(target.path) ? 'is a draft, not a published page' : 'does not exist';
      return { action: 'broken', reason: `leads to ${target.path}, which ${why}` };
    }
    return target.url === url ? { action: 'keep' } : { action: 'rewrite', url: target.url };
  };
  const rendered = renderMarkdown(origin.text, tree, decide);
  const problems = rendered.brokenLinks.map((link): DocsProblem => {
    const message = `link \`${link.url}\` ${link.reason}`;
    return link.line === undefined ? { file: origin.source, message } : { file: origin.source, line: link.line, message };
  });

  const served: DocsPage = {
    frontmatter: { description: frontmatter.description, status: 'published', title: frontmatter.title },
    markdown: rendered.markdown,
    path: origin.path,
    slugs: slugsOf(origin.path),
    source: origin.source,
  };
  // Search reads the served Markdown as the HTML edition does, tables and all.
  return { page: served, words: wordsOf(rendered.markdown), problems };
}

function navigationItemOf(page: CheckedPage): NavigationPageItem {
  const { frontmatter, origin } = page;
  return {
    pageType: frontmatter.pageType,
    path: origin.path,
    primaryReader: frontmatter.primaryReader,
    source: origin.source,
    title: frontmatter.title,
  };
}
