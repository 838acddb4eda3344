import { parentPort, workerData } from 'node:worker_threads';
import type { DocsSiteOptions } from '../docs-site/index.ts';
import { docsInputsDigest, storeDocsSite } from '../docs-site/snapshot.ts';

// A thread that compiles the documentation site once and posts it back in the form a build stores
// (see compileDocsOffThread in boot.ts), then ends, taking with it everything the compile allocated.
const { compileDocsSite } = await import('../docs-site/index.ts');
const options = workerData as Required<DocsSiteOptions>;
parentPort!.postMessage({ inputs: docsInputsDigest(options), site: storeDocsSite(compileDocsSite(options)) });
