import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import type { NavigationItem, NavigationPageItem } from './contract.ts';
import type { DocsProblem } from './problems.ts';

/** Outcome of reading the navigation file: the sections, and every problem found. */
export interface NavigationReading {
  readonly items: NavigationItem[];
  readonly problems: DocsProblem[];
}

/** What the navigation needs to know about the site's pages. */
export interface NavigationLookup {
  /** Published pages by docs path. */
  readonly published: ReadonlyMap<string, NavigationPageItem>;
  /** Docs paths of draft pages, so listing one gets a precise message. */
  readonly drafts: ReadonlySet<string>;
}

const SECTION_KEYS = ['page', 'pages'];

/**
 * Reads the navigation file: a YAML list of sections `{page: <docs path>, pages: [<docs path>, …]}`;
 * a page entry `<prefix>/*` stands for every published page under that prefix not listed by name.
 * Titles and the other fields come from the pages' frontmatter, so the file cannot drift from them.
 * Every listed path must be a published page, listed once.
 *
 * @param yamlText the file's text
 * @param file the file's name in problems (relative to the project root)
 */
export function readNavigation(yamlText: string, file: string, lookup: NavigationLookup): NavigationReading {
  const lineCounter = new LineCounter();
  const document = parseDocument(yamlText, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const problems: DocsProblem[] = [];
  const report = (message: string, node?: { range?: readonly number[] | null } | null): void => {
    const offset = node?.range?.[0];
    problems.push(offset === undefined ? { file, message } : { file, line: lineCounter.linePos(offset).line, message });
  };

  if (document.errors.length > 0) {
    for (const error of document.errors) {
      problems.push({ file, line: lineCounter.linePos(error.pos[0]).line, message: `navigation is not valid YAML: ${error.message}` });
    }
    return { items: [], problems };
  }
  if (!isSeq(document.contents)) {
    report('navigation must be a list of sections, each `{page: <docs path>, pages: [<docs path>, …]}`');
    return { items: [], problems };
  }

  const listed = new Set<string>();
  // Resolves one listed path to its page, reporting why not when it cannot be listed.
  const pageAt = (node: unknown, what: string): NavigationPageItem | undefined => {
    const yamlNode = node as YamlNode | null;
    const path = isScalar(yamlNode) ? yamlNode.value : undefined;
    if (typeof path !== 'string') {
      report(`${what} must be a docs path string`, yamlNode);
      return undefined;
    }
    if (listed.has(path)) {
      report(`${what} lists ${path} again; a page appears in the navigation once`, yamlNode);
      return undefined;
    }
    listed.add(path);
    const page = lookup.published.get(path);
    if (page === undefined) {
      report(`${what} lists ${path}, which ${lookup.drafts.has(path) ? 'is a draft, not a published page' : 'is not a page'}`, yamlNode);
    }
    return page;
  };

  // `/reference/*` lists every published page under /reference/ not listed by name, in path order:
  // how pages generated from the rule packs join the navigation without anyone editing this file.
  const explicitPaths = new Set<string>();
  for (const entry of document.contents.items) {
    const children = isMap(entry) ? entry.get('pages', true) : undefined;
    if (!isSeq(children)) continue;
    for (const child of children.items) if (isScalar(child) && typeof child.value === 'string' && !child.value.endsWith('/*')) explicitPaths.add(child.value);
  }
  const wildcardPrefix = (node: unknown): string | undefined => {
    const value = isScalar(node as YamlNode) ? (node as { value: unknown }).value : undefined;
    return typeof value === 'string' && value.endsWith('/*') ? value.slice(0, -1) : undefined;
  };
  const pagesUnder = (prefix: string): NavigationPageItem[] =>
    [...lookup.published.keys()]
      .filter((path) => path.startsWith(prefix) && !explicitPaths.has(path) && !listed.has(path))
      .sort()
      .map((path) => {
        listed.add(path);
        return lookup.published.get(path)!;
      });

  const items: NavigationItem[] = [];
  document.contents.items.forEach((entry, position) => {
    const what = `section ${position + 1}`;
    if (!isMap(entry)) {
      report(`${what} must be a mapping with \`page\` and \`pages\``, entry as YamlNode | null);
      return;
    }
    for (const pair of entry.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== 'string' || !SECTION_KEYS.includes(key)) {
        report(`${what} has the key \`${String(key)}\`; a section has only \`page\` and \`pages\``, pair.key as YamlNode | null);
      }
    }
    const section = pageAt(entry.get('page', true), `${what} \`page\``);
    const children = entry.get('pages', true);
    if (!isSeq(children)) {
      report(`${what} must have \`pages\`, a list of docs paths (may be empty)`, entry);
      return;
    }
    const pages = children.items.flatMap((child, index) => {
      const prefix = wildcardPrefix(child);
      if (prefix !== undefined) return pagesUnder(prefix);
      const page = pageAt(child, `${what} \`pages\` item ${index + 1}`);
      return page === undefined ? [] : [page];
    });
    if (section !== undefined) items.push({ ...section, pages });
  });
  return { items, problems };
}

/** The parts of a docs site this check reads. */
export interface NavigableSite {
  paths(): readonly string[];
  navigation(): readonly NavigationItem[];
}

/** Published pages that the navigation does not reach, so a test can insist every page is listed. */
export function pagesMissingFromNavigation(site: NavigableSite): string[] {
  const reachable = new Set(site.navigation().flatMap((section) => [section.path, ...section.pages.map((page) => page.path)]));
  return site.paths().filter((path) => !reachable.has(path));
}
