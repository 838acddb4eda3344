// Lane: services (npm run test:fast leaves this file out).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';
import { buildOnce } from '../helpers/service-process.ts';

// What a boot of the built service loads: dist/server.js and every file its static imports reach.
// The Markdown toolchain (compiling the docs, when the build's snapshot is stale, on a thread of its
// own), the Redis client (with REDIS_URL) and the MCP SDK (with API_EXTENSIONS=mcp) are loaded only
// when needed; a megabyte of code a plain boot must not load.
const DIST = join(PROJECT_ROOT, 'dist');
const LOADED_ONLY_WHEN_NEEDED = ['remark-parse', 'micromark', 'acorn', 'hast-util-to-html', 'ioredis', '@modelcontextprotocol/sdk'];

/** The files `entry` imports statically, itself included, transitively. */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(DIST, file), 'utf8');
    // An import statement, not an import() expression: `from "./…"` at the end of one. The bundle
    // is minified, so a statement may start a line or follow the `;` of the one before.
    for (const match of code.matchAll(/(?:^|;)\s*(?:import|export)\b[^;]*?\bfrom\s*"\.\/([^"]+)"/gm)) visit(match[1]!);
  };
  visit(entry);
  return [...seen];
}

/** The source files bundled into a built file, from its source map. */
function sourcesIn(file: string): string[] {
  return (JSON.parse(readFileSync(join(DIST, `${file}.map`), 'utf8')) as { sources: string[] }).sources;
}

/** The npm packages bundled into a built file. */
function packagesIn(file: string): Set<string> {
  return new Set(sourcesIn(file).flatMap((source) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1] ?? []));
}

test('a boot of the built service loads neither the Markdown toolchain nor the Redis client', () => {
  buildOnce();
  const loadedAtBoot = staticClosure('server.js');
  assert.ok(loadedAtBoot.length >= 3, `a boot loads ${loadedAtBoot.join(', ')}`);
  const atBoot = new Set(loadedAtBoot.flatMap((file) => [...packagesIn(file)]));
  assert.ok(atBoot.has('koa') && atBoot.has('yaml'), 'the closure holds what a boot uses');
  for (const name of LOADED_ONLY_WHEN_NEEDED) assert.not.ok(atBoot.has(name), `${name} is loaded by every boot`);

  // They are built: in chunks that the service imports when it needs them (from any file a boot
  // loads: code the service shares with the MCP server over stdio sits in shared chunks), or that
  // the thread compiling the docs loads (docs-compile-entry.js, started only when the snapshot does not fit).
  const later = new Set(
    [...loadedAtBoot.flatMap(dynamicImports), 'docs-compile-entry.js', ...dynamicImports('docs-compile-entry.js')].flatMap(staticClosure).flatMap((file) => [...packagesIn(file)]),
  );
  for (const name of LOADED_ONLY_WHEN_NEEDED) assert.ok(later.has(name), `${name} is in a chunk the service or its docs compile thread imports when needed`);
});

test('the built service requires node:http and elasticlunr instead of importing them, and leaves out the Pushgateway', () => {
  buildOnce();
  const built = readdirSync(DIST).filter((file) => file.endsWith('.js'));
  const code = built.map((file) => readFileSync(join(DIST, file), 'utf8')).join('\n');
  // An ES import of node:http reads its lazy WebSocket exports and loads Node's web client, HTTP/2
  // and TLS; one of CommonJS first runs a WebAssembly lexer over it (scripts/build.js).
  for (const name of ['http', 'node:http', 'elasticlunr']) {
    assert.not.match(code, new RegExp(`(?:import|export)[^;]*?from\\s*"${name}"`), `an ES import of ${name}`);
    assert.not.match(code, new RegExp(`import\\s*"${name}"`), `an ES import of ${name} for its effects`);
  }
  assert.match(code, /__require\("elasticlunr"\)/, 'the docs search still loads elasticlunr');
  assert.match(code, /__require\("(?:node:)?http"\)/, 'the service still loads node:http');
  // prom-client's Pushgateway would load node:https and TLS at every boot.
  const bundled = built.flatMap(sourcesIn);
  assert.ok(bundled.some((source) => source.endsWith('prom-client/lib/counter.js')), 'prom-client is bundled');
  assert.not.ok(bundled.some((source) => source.endsWith('prom-client/lib/pushgateway.js')), 'the Pushgateway is bundled');
  assert.not.match(code, /__require\("(?:node:)?https"\)/, 'something in the bundle loads node:https');
});

/** The files a built file imports with import(). */
function dynamicImports(file: string): string[] {
  return (readFileSync(join(DIST, file), 'utf8').match(/import\("\.\/[^"]+"\)/g) ?? []).map((call) => /"\.\/([^"]+)"/.exec(call)![1]!);
}

test.run();
