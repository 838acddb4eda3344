/** A published page, in the contract's JSON shape. */
export interface DocsPage {
  readonly frontmatter: { readonly description: string; readonly status: 'published'; readonly title: string };
  /** The served Markdown: no frontmatter, no MDX, links between pages rewritten to docs paths. */
  readonly markdown: string;
  readonly path: string;
  readonly slugs: readonly string[];
  readonly source: string;
}
