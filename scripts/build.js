#!/usr/bin/env node
// Builds what `npm start` runs: the service and its calculation worker, each bundled into one
// JavaScript file under dist/, so that production starts plain node on code that needs no
// transpiler and loads one file instead of hundreds of modules.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist`;

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  // dist/ sits one folder below the root, as server/ does, so paths the server works out from its
  // own location (the packs, the docs) mean the same from the bundle. The worker keeps its name
  // beside the bundle for the same reason.
  entryPoints: { server: 'server/main.ts', 'worker-entry': 'server/calculation/worker.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // elasticlunr assigns an undeclared global, which strict-mode ES module code may not: node loads it as it is.
  external: ['elasticlunr'],
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
