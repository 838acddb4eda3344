import type { Catalog } from '../../engine/index.ts';
import type { DocsSite } from '../../docs-site/index.ts';
import { docsInputsDigest, openStoredDocsSite, type StoredDocsSnapshot } from '../../docs-site/snapshot.ts';
import { compileDocs, projectDocsOptions } from '../../server/process/boot.ts';

/** Compilations of the project's documentation, by the digest of what they were compiled from. */
const compilations = new Map<string, Promise<StoredDocsSnapshot>>();

/**
 * The project's documentation for a catalog, compiled from its sources once per lane process and
 * shared by every test file the lane runs that needs the same pages: a compilation takes seconds of
 * processor time, and a lane runs many files one after another.
 */
export function compiledProjectDocs(catalog: Catalog): Promise<StoredDocsSnapshot> {
  const digest = docsInputsDigest(projectDocsOptions(catalog));
  let compiled = compilations.get(digest);
  if (!compiled) {
    compiled = compileDocs(catalog);
    compilations.set(digest, compiled);
  }
  return compiled;
}

/** The site served from that shared compilation. */
export async function projectDocsSite(catalog: Catalog): Promise<DocsSite> {
  return openStoredDocsSite((await compiledProjectDocs(catalog)).site);
}
