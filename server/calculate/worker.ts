import { parentPort, workerData } from 'node:worker_threads';
import { createCatalog, loadPacks, type StoredYamlFiles } from '../../engine/index.ts';
import { calculate, findPlan, type PlanKey } from './calculation.ts';

/** Messages the pool sends to a calculation worker: the plan by its key, which the worker finds in its own catalog. */
export interface WorkerJob {
  id: number;
  plan: PlanKey;
  facts: unknown;
  budgetMs: number;
}

const { packPaths, taxYears, storedYaml } = workerData as { packPaths: string[]; taxYears?: string[]; storedYaml?: StoredYamlFiles };
// The packs the service serves, read as the service reads them: the worked examples are not run here.
const loaded = loadPacks(packPaths, { examples: false, taxYears, storedYaml });
if (loaded.diagnostics.length > 0 || loaded.missing.length > 0) {
  parentPort!.postMessage({ type: 'failed', message: 'the rule packs did not load cleanly in a calculation worker' });
} else {
  const catalog = createCatalog(loaded.packs.flatMap((pack) => pack.plans));
  parentPort!.on('message', (job: WorkerJob) => {
    const plan = findPlan(catalog, job.plan);
    const result = plan ? calculate({ plan, facts: job.facts }, job.budgetMs) : { kind: 'unavailable' as const };
    if (result.kind !== 'ok') return parentPort!.postMessage({ type: 'result', id: job.id, result });
    // The report is a view of a larger buffer: sent as a copy of its own size, moved rather than cloned with the rest.
    const body = new Uint8Array(result.body);
    parentPort!.postMessage({ type: 'result', id: job.id, result: { kind: 'ok', body } }, [body.buffer]);
  });
  parentPort!.postMessage({ type: 'ready' });
}
