import { parentPort, workerData } from 'node:worker_threads';
import type { DocsSiteOptions } from '../../docs-site/index.ts';

// A thread that compiles the documentation site once and posts it back in the form a build stores
// (see compileDocsOffThread in boot.ts), then ends, taking with it everything the compile allocated.
const { compileStoredDocsSite } = await import('../../docs-site/index.ts');
parentPort!.postMessage(compileStoredDocsSite(workerData as Required<DocsSiteOptions>));
