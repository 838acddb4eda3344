import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../engine/index.ts';
import type { DocsSite } from '../../docs-site/index.ts';
import { docsInputsDigest, openStoredDocsSite, type StoredDocsSnapshot } from '../../docs-site/snapshot.ts';
import { compileDocs, projectDocsOptions } from '../../server/process/boot.ts';
import { PROJECT_ROOT } from './packs.ts';

/** Compilations of the project's documentation, by the digest of what they were compiled from. */
const compilations = new Map<string, Promise<StoredDocsSnapshot>>();

/**
 * The folder that scripts/test.js makes for one run of the suite and shares with its lanes (unset when
 * a file is run on its own): a compilation one lane stores there, the others read.
 */
const RUN_FOLDER = process.env.TAX_RULES_TEST_RUN_FOLDER;

/**
 * The project's documentation for a catalog, compiled from its sources once per run of the suite and
 * shared by every test file that needs the same pages, whichever lane runs it: a compilation takes
 * seconds of processor time.
 */
export function compiledProjectDocs(catalog: Catalog): Promise<StoredDocsSnapshot> {
  const digest = docsInputsDigest(projectDocsOptions(catalog));
  let compiled = compilations.get(digest);
  if (!compiled) {
    compiled = RUN_FOLDER === undefined ? compileDocs(catalog) : compiledOnceForRun(RUN_FOLDER, catalog, digest);
    compilations.set(digest, compiled);
  }
  return compiled;
}

/** The site served from that shared compilation. */
export async function projectDocsSite(catalog: Catalog): Promise<DocsSite> {
  return openStoredDocsSite((await compiledProjectDocs(catalog)).site);
}

/** The process id in a claim ('' while it is being written), or undefined once the claim is gone. */
function claimingProcess(claim: string): string | undefined {
  try {
    return readFileSync(claim, 'utf8');
  } catch {
    return undefined;
  }
}

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * The compilation from the run's folder: the first lane to ask claims it and stores it there (named
 * by the project's folder too, as a copy of the project run by a test shares the folder); a lane that
 * asks meanwhile waits for it, and compiles it itself if the claiming lane failed or ended.
 */
async function compiledOnceForRun(folder: string, catalog: Catalog, digest: string): Promise<StoredDocsSnapshot> {
  const file = join(folder, `docs-${createHash('sha256').update(`${PROJECT_ROOT}\n${digest}`).digest('hex').slice(0, 32)}.json`);
  const claim = `${file}.claim`;
  try {
    writeFileSync(claim, String(process.pid), { flag: 'wx' });
  } catch {
    for (;;) {
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as StoredDocsSnapshot;
      const claimant = claimingProcess(claim);
      if (claimant === undefined || (claimant !== '' && !isRunning(Number(claimant)))) return compileDocs(catalog);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    const compiled = await compileDocs(catalog);
    writeFileSync(`${file}.partial`, JSON.stringify(compiled));
    renameSync(`${file}.partial`, file);
    return compiled;
  } catch (error) {
    rmSync(claim, { force: true });
    throw error;
  }
}
