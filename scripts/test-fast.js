#!/usr/bin/env node
// `npm run test:fast`: the suite without the test files that start services, browsers, Redis or a
// build (each says so with a `// Lane: services` line), for the edit loop. `npm test` runs them all.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const MARKER = /^\/\/ Lane: services\b/m;

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const slow = testFiles(join(root, 'test')).filter((file) => MARKER.test(readFileSync(file, 'utf8')));
const escaped = slow.map((file) => relative(join(root, 'test'), file).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
console.log(`test:fast: leaving out ${slow.length} test files that start services (npm test runs them)`);
const args = ['-r', 'tsx', 'test', '\\.test\\.ts$', ...(escaped.length > 0 ? ['-i', `^(${escaped.join('|')})$`] : [])];
const run = spawnSync(join(root, 'node_modules/.bin/uvu'), args, { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
