import { object, ref, type SchemaType } from '../../engine/index.ts';
import { EXCERPT_MAX_LENGTH } from './excerpt.ts';
import { PAGE_TYPES, PRIMARY_READERS } from './frontmatter.ts';
import { DOCS_PATH_MAX_LENGTH, DOCS_PATH_PATTERN_SOURCE } from './paths.ts';

/** The contract's maximum number of search results. */
export const SEARCH_RESULT_LIMIT = 20;

const text = { type: 'string', minLength: 1 } as const;
const nonBlank = { type: 'string', minLength: 1, pattern: '^\\S(.*\\S)?$' } as const;
const pageFields = {
  pageType: { enum: [...PAGE_TYPES] },
  path: nonBlank,
  primaryReader: { enum: [...PRIMARY_READERS] },
  source: nonBlank,
  title: nonBlank,
};

/**
 * The JSON Schemas of what the documentation serves (navigation, pages, search results): the one
 * definition of each. The site's types below are derived from them; the API description uses them.
 */
export const DOCS_SCHEMAS = {
  NavigationPageItem: object(pageFields),
  NavigationItem: object({ ...pageFields, pages: { type: 'array', items: ref('NavigationPageItem') } }),
  DocsNavigation: object({ primaryNavigation: { type: 'array', items: ref('NavigationItem') } }),
  DocsPage: object({
    frontmatter: object({ description: text, status: { const: 'published' }, title: text }),
    // The served Markdown: no frontmatter, no MDX, links between pages rewritten to docs paths.
    markdown: { type: 'string' },
    path: { type: 'string', minLength: 1, maxLength: DOCS_PATH_MAX_LENGTH, pattern: DOCS_PATH_PATTERN_SOURCE },
    slugs: { type: 'array', items: text },
    source: text,
  }),
  SearchResult: object({ description: text, excerpt: { type: 'string', maxLength: EXCERPT_MAX_LENGTH }, path: text, title: text }),
  SearchResults: { type: 'array', maxItems: SEARCH_RESULT_LIMIT, items: ref('SearchResult') },
};

/** Read-only at every depth: the served site is frozen once built. */
type Frozen<Value> = Value extends readonly (infer Item)[] ? readonly Frozen<Item>[] : Value extends object ? { readonly [Key in keyof Value]: Frozen<Value[Key]> } : Value;

/** The TypeScript type of a documentation shape, derived from its schema. */
export type DocsShape<Name extends keyof typeof DOCS_SCHEMAS> = Frozen<SchemaType<(typeof DOCS_SCHEMAS)[Name], typeof DOCS_SCHEMAS>>;

/** A page as listed in the navigation. */
export type NavigationPageItem = DocsShape<'NavigationPageItem'>;
/** A top-level navigation section: its index page and the pages under it. */
export type NavigationItem = DocsShape<'NavigationItem'>;
/** A published page. */
export type DocsPage = DocsShape<'DocsPage'>;
/** One search hit. */
export type SearchResult = DocsShape<'SearchResult'>;
