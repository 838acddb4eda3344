import { existsSync, readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { DocsSite, DocsSiteOptions } from '../../docs-site/index.ts';
import { docsInputsDigest, openStoredDocsSite, referencePages, type StoredDocsSnapshot } from '../../docs-site/snapshot.ts';
import { createCatalog, formatDiagnostic, loadPacks, readStoredYaml, type Catalog, type StoredYamlFiles } from '../../engine/index.ts';
import { valuesOutsideContract } from '../contract/enumerations.ts';
import { catalogValues, componentSchemas } from '../contract/components.ts';
import { OPERATIONS, routePath } from '../contract/operations.ts';
import { DOCS_CONTENT, DOCS_NAVIGATION, DOCS_SNAPSHOT, PACKS_DIR, PROJECT_ROOT, STORED_YAML } from '../project-paths.ts';

/** Thrown when the service must not start; `problems` lists every reason. */
export class BootFailure extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`The rule packs have problems; the service will not start:\n${problems.join('\n')}`);
    this.problems = problems;
  }
}

let storedYamlRead: { files: StoredYamlFiles | undefined } | undefined;

/**
 * The build's parses of the shipped YAML, read once. A file whose text differs from what the build
 * parsed is parsed again, so a missing or unreadable store only makes the boot slower.
 */
export function storedYaml(): StoredYamlFiles | undefined {
  storedYamlRead ??= { files: readStoredYaml(STORED_YAML) };
  return storedYamlRead.files;
}

/**
 * Loads and checks every pack, or every pack of the given tax years; any diagnostic stops the boot
 * with all of them listed.
 */
export function loadCatalog(packPaths: readonly string[] = [PACKS_DIR], taxYears?: readonly string[]): Catalog {
  // Everything a service serves is checked; the worked examples are the analysts' and the tests' to run.
  const loaded = loadPacks(packPaths, { displayRoot: PROJECT_ROOT, examples: false, taxYears, storedYaml: storedYaml() });
  const problems = [...loaded.missing.map((path) => `${path}: no such pack folder`), ...loaded.diagnostics.map(formatDiagnostic)];
  // With years chosen, finding none of theirs is for the caller to explain (see loadServed).
  if (loaded.packs.length === 0 && !taxYears) problems.push('no rule packs were found');
  const catalog = createCatalog(loaded.packs.flatMap((pack) => pack.plans));
  // A pack may not introduce a value the API's closed enumerations do not name (a new source kind or rounding mode).
  problems.push(...valuesOutsideContract(loaded.packs.map((report) => report.pack), componentSchemas(catalog, catalogValues(catalog))));
  if (problems.length > 0) throw new BootFailure(problems);
  return catalog;
}

/** Where the project's documentation comes from, with reference pages generated from the catalog. */
export function projectDocsOptions(catalog: Catalog): Required<DocsSiteOptions> {
  return { contentDir: DOCS_CONTENT, navigationFile: DOCS_NAVIGATION, projectRoot: PROJECT_ROOT, generatedPages: referencePages(catalog), apiReferenceUrl: API_REFERENCE_URL };
}

/** The reference viewer's route, linked from every HTML docs page. */
const API_REFERENCE_URL = routePath(OPERATIONS.find((operation) => operation.operationId === 'getApiReference')!);

/**
 * Compiles the documentation site from its Markdown, with reference pages generated from the
 * catalog, into what a build stores; a broken page or link throws. For the build (and its tests):
 * a boot that must compile does it on a thread of its own (compileDocsOffThread), so the service
 * never loads the Markdown parser itself.
 */
export async function compileDocs(catalog: Catalog): Promise<StoredDocsSnapshot> {
  const { compileStoredDocsSite } = await import('../../docs-site/index.ts');
  return compileStoredDocsSite(projectDocsOptions(catalog));
}

/**
 * The documentation site for the catalog being served: from the build's snapshot when it was
 * compiled from exactly these pages, navigation and packs, else compiled now (a broken page or
 * link stops the boot). `snapshotFile: null` always compiles.
 */
export async function loadDocs(catalog: Catalog, snapshotFile: string | null = DOCS_SNAPSHOT): Promise<{ site: DocsSite; from: 'snapshot' | 'sources' } | undefined> {
  if (!existsSync(DOCS_NAVIGATION)) return undefined;
  const options = projectDocsOptions(catalog);
  if (snapshotFile !== null && existsSync(snapshotFile)) {
    const stored = JSON.parse(readFileSync(snapshotFile, 'utf8')) as StoredDocsSnapshot;
    if (stored.inputs === docsInputsDigest(options)) return { site: openStoredDocsSite(stored.site), from: 'snapshot' };
  }
  return { site: openStoredDocsSite((await compileDocsOffThread(options)).site), from: 'sources' };
}

/** The thread compileDocsOffThread starts: the bundled worker beside the service, or its sources' shim. */
const DOCS_COMPILE_ENTRY = new URL('./docs-compile-entry.js', import.meta.url);

/**
 * `compileDocs`, on a thread of its own, whose heap goes when it ends. Parsing and rendering the
 * pages allocates far more than the site they make, and compiled on the main thread, V8 kept that
 * in the old space until its first full collection, which a service under steady load may not
 * reach for a long time: twice the resident size of a boot from a snapshot (bench/README.md,
 * "Figures behind the code"). The main thread also stays free to hear a stop signal.
 */
function compileDocsOffThread(options: Required<DocsSiteOptions>): Promise<StoredDocsSnapshot> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(DOCS_COMPILE_ENTRY, { workerData: options, execArgv: [] });
    worker.once('message', (snapshot: StoredDocsSnapshot) => resolve(snapshot));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the documentation compile thread ended with exit code ${code} before it answered`)));
  });
}
