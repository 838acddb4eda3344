import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { docsInputsDigest } from '../../docs-site/snapshot.ts';
import { loadDocs, projectDocsOptions } from '../../server/process/boot.ts';
import { compiledProjectDocs } from '../helpers/docs.ts';
import { shippedPacks } from '../helpers/packs.ts';

// A build stores the compiled documentation so that a boot skips parsing, rendering and indexing.
// What a boot serves from it must be what it would have compiled from the sources, and a snapshot
// compiled from other sources must never be served.

const { catalog } = shippedPacks();
const TERMS = ['withholding', 'calculations', 'calc', 'medicare levy', 'Trace', 'zzzz', '__proto__'];

test('a stored snapshot of the current sources is served, and serves exactly what compiling the sources gives', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-snapshot-'));
  try {
    const file = join(dir, 'docs-snapshot.json');
    writeFileSync(file, JSON.stringify(await compiledProjectDocs(catalog)));
    const stored = (await loadDocs(catalog, file))!;
    const compiled = (await loadDocs(catalog, null))!;
    assert.is(stored.from, 'snapshot');
    assert.is(compiled.from, 'sources');
    assert.equal(stored.site.paths(), compiled.site.paths());
    assert.ok(stored.site.paths().length > 20);
    assert.equal(stored.site.navigation(), compiled.site.navigation());
    for (const path of compiled.site.paths()) assert.equal(stored.site.page(path), compiled.site.page(path), path);
    for (const term of TERMS) assert.equal(stored.site.search(term), compiled.site.search(term), term);
    for (const path of compiled.site.paths()) assert.is(stored.site.html.page(path), compiled.site.html.page(path), `${path} as HTML`);
    assert.is(stored.site.html.search('trace'), compiled.site.html.search('trace'));
    assert.ok(stored.site.html.page('/overview')?.includes('<a class="api-reference" href="/api/docs">API reference</a>'));
    assert.ok(Object.isFrozen(stored.site.page(stored.site.paths()[0]!)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a snapshot compiled from other sources (here, other packs) is not served: the docs are compiled at boot instead', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-snapshot-'));
  try {
    const file = join(dir, 'docs-snapshot.json');
    const snapshot = await compiledProjectDocs(catalog);
    writeFileSync(file, JSON.stringify({ ...snapshot, inputs: `${snapshot.inputs.slice(1)}0` }));
    assert.is((await loadDocs(catalog, file))!.from, 'sources');
    // Another catalog gives other reference pages, so another digest.
    const fewer = { ...catalog, plans: catalog.plans.slice(1) };
    assert.is.not(docsInputsDigest(projectDocsOptions(fewer)), snapshot.inputs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
