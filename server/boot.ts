import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDocsSite, referencePages, type DocsSite } from '../docs-site/index.ts';
import { createCatalog, formatDiagnostic, loadPacks, type Catalog } from '../engine/index.ts';
import { SOURCE_KINDS } from './openapi/components.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const PACKS_DIR = fileURLToPath(new URL('../rulepacks/', import.meta.url));
const DOCS_CONTENT = fileURLToPath(new URL('../docs-site/content/', import.meta.url));
const DOCS_NAVIGATION = fileURLToPath(new URL('../docs-site/navigation.yaml', import.meta.url));

/** Thrown when the service must not start; `problems` lists every reason. */
export class BootFailure extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The rule packs have problems; the service will not start:\n${problems.join('\n')}`);
    this.problems = problems;
  }
}

/** Loads and checks every pack; any diagnostic stops the boot with all of them listed. */
export function loadCatalog(packPaths: string[] = [PACKS_DIR]): Catalog {
  const loaded = loadPacks(packPaths, { displayRoot: PROJECT_ROOT });
  const problems = [...loaded.missing.map((path) => `${path}: no such pack folder`), ...loaded.diagnostics.map(formatDiagnostic)];
  if (loaded.packs.length === 0) problems.push('no rule packs were found');
  // The API names four kinds of source; a pack may not introduce another.
  for (const { pack } of loaded.packs) {
    for (const source of pack.sources) {
      if (!SOURCE_KINDS.includes(source.kind)) {
        const { file, line, column } = source.at;
        problems.push(`${file}:${line}:${column} schema source \`${source.id}\` has kind \`${source.kind}\`; the API allows ${SOURCE_KINDS.join(', ')}`);
      }
    }
  }
  if (problems.length > 0) throw new BootFailure(problems);
  return createCatalog(loaded.packs.flatMap((pack) => pack.plans));
}

/** Builds the documentation site, with reference pages generated from the catalog; a broken page or link stops the boot. */
export function loadDocs(catalog: Catalog): DocsSite | undefined {
  if (!existsSync(DOCS_NAVIGATION)) return undefined;
  return buildDocsSite({ contentDir: DOCS_CONTENT, navigationFile: DOCS_NAVIGATION, projectRoot: PROJECT_ROOT, generatedPages: referencePages(catalog) });
}
