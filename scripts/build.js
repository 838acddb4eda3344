#!/usr/bin/env node
// Builds what `npm start` runs: the service and its calculation worker, bundled under dist/, so
// that production starts plain node on code that needs no transpiler and loads a few files instead
// of hundreds of modules; and the work a boot would otherwise repeat on every start, done once here
// from the repository (see server/process/boot.ts for how a boot checks that it is still current).
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = `${root}dist`;

rmSync(outdir, { recursive: true, force: true });
mkdirSync(`${outdir}/generated`, { recursive: true });

// The pack-format validators as Ajv standalone code, compiled here instead of on every boot.
const { packValidatorsModuleSource } = await tsImport('../engine/load/standalone-validators.ts', import.meta.url);
const validatorsFile = `${outdir}/generated/precompiled-validators.js`;
writeFileSync(validatorsFile, packValidatorsModuleSource());
/** Puts the generated validators in the place of engine/load/precompiled-validators.ts. */
const precompiledValidators = {
  name: 'precompiled-validators',
  setup(build) {
    build.onResolve({ filter: /[/\\]precompiled-validators\.ts$/ }, () => ({ path: validatorsFile }));
  },
};

/**
 * Modules the bundle takes with require() where the sources, or the packages they use, import them.
 * An ES import builds the module's namespace by reading every export, and node:http exports
 * WebSocket, CloseEvent and MessageEvent, loaded when first read: the import (@koa/router has one)
 * loads Node's web client with HTTP/2 and TLS, which the service never uses. elasticlunr is
 * CommonJS outside the bundle, and Node.js imports CommonJS only after scanning its source with a
 * WebAssembly lexer, which a require() of the same file skips. What each holds resident:
 * bench/README.md, "Memory".
 */
const REQUIRED_NOT_IMPORTED = /^(?:(?:node:)?http|elasticlunr)$/;
const requireInsteadOfImport = {
  name: 'require-instead-of-import',
  setup(build) {
    build.onResolve({ filter: REQUIRED_NOT_IMPORTED }, (args) => (args.kind === 'import-statement' ? { path: args.path, namespace: 'required' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'required' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/**
 * prom-client's index loads its Pushgateway client, and with it node:https and TLS (resident for
 * nothing: bench/README.md, "Memory"), for pushing metrics to a gateway; the service is scraped on
 * its admin listener and never pushes. The bundle holds a stand-in that says so if anything ever constructs one.
 */
const withoutPushgateway = {
  name: 'without-pushgateway',
  setup(build) {
    build.onResolve({ filter: /\/pushgateway$/ }, (args) => (/[/\\]prom-client[/\\]/.test(args.importer) ? { path: 'pushgateway', namespace: 'not-bundled' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'not-bundled' }, () => ({
      contents: "module.exports = class Pushgateway { constructor() { throw new Error('prom-client\\'s Pushgateway is not in the bundle: the service is scraped, it does not push'); } };",
      loader: 'js',
    }));
  },
};

const bundleOptions = {
  absWorkingDir: root,
  // dist/ sits one folder below the root, as server/ does, so paths the server works out from its
  // own location (the packs, the docs) mean the same from the bundle. The workers (calculations,
  // and the docs compile a boot falls back on) keep their names beside the bundle for the same reason.
  entryPoints: { server: 'server/main.ts', 'worker-entry': 'server/calculate/worker.ts', 'docs-compile-entry': 'server/process/docs-compile.ts' },
  outdir,
  bundle: true,
  // What the boot imports only when it needs it (the Markdown parser, the MCP endpoint and its SDK)
  // goes into chunks of its own.
  splitting: true,
  // Chunks sit beside the bundles: code works out paths from its own file's folder.
  chunkNames: 'chunk-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // elasticlunr assigns an undeclared global, which strict-mode ES module code may not: node loads it as it is.
  external: ['elasticlunr'],
  sourcemap: 'linked',
  legalComments: 'none',
  // V8 keeps every module's source text for as long as the process runs: without comments and
  // indentation the bundles are smaller and pure ASCII, which V8 stores one byte a character instead
  // of two, as for text with a single other character (an en dash in a comment is enough; figures in
  // bench/README.md, "Figures behind the code"). Identifiers keep their names, so stack traces and
  // profiles still read; the source maps lead back to the TypeScript.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [precompiledValidators, requireInsteadOfImport, withoutPushgateway],
};
await build(bundleOptions);

// The MCP server over stdio (bin/tax-rules-mcp.js), beside the service whose code it runs, so that
// the paths that code works out from its own location hold, and the workers it may start are the
// service's. Built apart: as an entry of the service's build it made esbuild split the service's
// code into more shared chunks, and a plain boot took more CPU and memory for them.
await build({ ...bundleOptions, entryPoints: { 'mcp-stdio': 'mcp/stdio.ts' }, chunkNames: 'mcp-chunk-[hash]' });

// The command-line tools, each in dist/<tool>/main.js: two folders below the root, as in tools/, so
// the paths they work out from their own location (the shipped packs) hold.
await build({
  ...bundleOptions,
  entryPoints: Object.fromEntries(['validate-pack', 'explain', 'pack-diff'].map((tool) => [`${tool}/main`, `tools/${tool}/main.ts`])),
  chunkNames: 'tools-chunk-[hash]',
});


const engine = await tsImport('../engine/index.ts', import.meta.url);
const paths = await tsImport('../server/project-paths.ts', import.meta.url);
const boot = await tsImport('../server/process/boot.ts', import.meta.url);
const serving = await tsImport('../server/process/served-catalog.ts', import.meta.url);

// The shipped packs' YAML, parsed once here instead of on every boot: what each file's parse found,
// filed by the digest of its text (see engine/load/stored-yaml.ts). A file with problems is not
// stored; the service parses it, and reports them, at boot. The worked examples, which only the
// tools read, are stored apart, so that a boot does not read their parses.
const servedFiles = {};
engine.loadPacks([paths.PACKS_DIR], { examples: false, storeYamlInto: servedFiles });
engine.readServingDefaults([paths.PACKS_DIR], { storeYamlInto: servedFiles });
engine.writeStoredYaml(paths.STORED_YAML, servedFiles);
const exampleFiles = {};
engine.loadPacks([paths.PACKS_DIR], { storedYaml: servedFiles, storeYamlInto: exampleFiles });
engine.writeStoredYaml(paths.STORED_EXAMPLES_YAML, exampleFiles);

// The documentation, compiled from the Markdown and the reference pages of the tax years plain
// `npm start` serves (another choice of years compiles its own at boot). Broken packs or pages are
// not the build's to report: the service reports them, in full, at boot.
try {
  const served = serving.loadServed([paths.PACKS_DIR], { taxYears: null, defaultTaxYear: null });
  const snapshot = await boot.compileDocs(served.catalog);
  mkdirSync(outdir, { recursive: true });
  writeFileSync(paths.DOCS_SNAPSHOT, JSON.stringify(snapshot));
} catch (error) {
  process.stderr.write(`build: no documentation snapshot (${error instanceof Error ? error.constructor.name : 'error'}); the service will compile the documentation at boot and report the problem\n`);
}
