// Lane: services (npm run test:fast leaves this file out).
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT, startDefaultService, type DefaultService } from '../../tools/openapi/default-service.ts';
import { nodeLineBinary, supportedNodeLines } from '../helpers/node-lines.ts';
import { expectedCalculateAllOutput } from './integrator/expected.ts';

// The client as an integrator outside the repository gets it: `npm pack` builds it and packs the
// tarball (from a copy of the package, so that its clean build does not take dist/ away from tests
// running beside this one); a project in a temporary folder installs the tarball with plain `npm install`; tsc
// type-checks the integrator's programs (test/client/integrator) against the installed declarations
// with strict, and compiles them; plain `node` runs the result, with no TypeScript runner, against
// the service as `npm start` serves it, on each supported Node.js line present on this machine.

const CLIENT_PACKAGE = join(PROJECT_ROOT, 'packages', 'client');
const CLIENT_SOURCES = join(CLIENT_PACKAGE, 'src');
const PROGRAMS = join(PROJECT_ROOT, 'test', 'client', 'integrator');
const run = promisify(execFile);

const lines = supportedNodeLines().map((line) => ({ line, ...nodeLineBinary(line) }));
for (const line of lines) {
  if ('missing' in line) console.log(`\nSKIPPED: the packed client on Node.js ${line.line}: ${line.missing}.\n`);
}

/** This run's environment without npm's own variables: run from `npm test`, they name the repository as npm's prefix. */
function outsideNpmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

interface Packed {
  filename: string;
  files: { path: string }[];
}

let work: string;
let project: string;
let packed: Packed;
let service: DefaultService;

test.before(async () => {
  work = mkdtempSync(join(tmpdir(), 'tax-rules-api-client-'));
  const env = outsideNpmEnvironment();
  // The package as it is published from, without its build: its manifest, README, build settings and
  // sources, with the repository's node_modules for the build's compiler and types.
  const copy = join(work, 'package');
  mkdirSync(copy);
  for (const file of ['package.json', 'README.md', 'tsconfig.json']) copyFileSync(join(CLIENT_PACKAGE, file), join(copy, file));
  cpSync(CLIENT_SOURCES, join(copy, 'src'), { recursive: true });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(copy, 'node_modules'));
  // `npm pack` runs the package's prepack: a clean build of src/ into dist/.
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: copy, env, maxBuffer: 16 << 20 });
  packed = (JSON.parse(pack.stdout) as Packed[])[0]!;

  project = join(work, 'integrator');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
  for (const program of ['calculate-all.ts', 'type-errors.ts']) copyFileSync(join(PROGRAMS, program), join(project, program));
  // The strictest project an integrator could have: the installed declarations are checked too.
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, types: ['node'], rootDir: '.', outDir: 'out' };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['calculate-all.ts', 'type-errors.ts'] }));
  // The programs read the environment, so the project needs Node's types: the repository's version, which npm's cache holds.
  const typesVersion = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as { version: string }).version;
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, packed.filename), `@types/node@${typesVersion}`], { cwd: project, env });

  // Shedding off: whether a busy test machine's event loop lags is not what the client is tested for.
  service = await startDefaultService({ MAX_EVENT_LOOP_DELAY_MS: '0' });
});

test.after(async () => {
  await service?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function sourceModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceModules(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [relative(CLIENT_SOURCES, join(dir, entry.name)).replace(/\.ts$/, '')] : [],
  );
}

test('the tarball holds, for each source module, its ES module, declarations and both maps; the README; nothing else', () => {
  const expected = sourceModules(CLIENT_SOURCES).flatMap((module) => [`src/${module}.ts`, ...['.js', '.js.map', '.d.ts', '.d.ts.map'].map((ending) => `dist/${module}${ending}`)]);
  expected.push('package.json', 'README.md');
  assert.equal(packed.files.map((file) => file.path).sort(), expected.sort());
});

test('the install instructions name the file npm pack writes', () => {
  for (const page of ['docs-site/content/guides/use-the-typescript-client.md', 'packages/client/README.md']) {
    assert.ok(readFileSync(join(PROJECT_ROOT, page), 'utf8').includes(packed.filename), `${page} does not name ${packed.filename}`);
  }
});

const installed = () => join(project, 'node_modules', '@tax-rules-api', 'client');
const installedManifest = () => JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8'));

test('it is installed as a copy from the tarball, not a link to the workspace, with its dependencies beside it', () => {
  assert.not.ok(lstatSync(installed()).isSymbolicLink(), `${installed()} is a link`);
  assert.ok(existsSync(join(project, 'node_modules', 'openapi-fetch', 'package.json')), 'openapi-fetch is not installed');
});

test('the package is public, versioned with the API description, and exports the build', () => {
  const manifest = installedManifest();
  const description = JSON.parse(readFileSync(join(PROJECT_ROOT, 'openapi.json'), 'utf8'));
  assert.is(manifest.private, undefined);
  assert.is(manifest.version, description.info.version, 'packages/client/package.json version differs from openapi.json info.version');
  assert.equal(manifest.exports['.'], { types: './dist/index.d.ts', default: './dist/index.js' });
  for (const target of Object.values(manifest.exports['.']) as string[]) assert.ok(existsSync(join(installed(), target)), `${target} is not in the package`);
  const root = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'));
  assert.is(manifest.engines.node, root.engines.node, 'the client supports the Node.js lines the service does');
});

test('every package the build imports is a declared dependency, and only those', () => {
  const dist = join(installed(), 'dist');
  const builds = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
  const imported = new Set(builds.flatMap((file) => [...readFileSync(join(dist, file), 'utf8').matchAll(/\bfrom\s+['"]([^'"./][^'"]*)['"]/g)].map((match) => match[1]!)));
  const packages = [...imported].filter((specifier) => !specifier.startsWith('node:')).map((specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
  assert.equal(packages.sort(), Object.keys(installedManifest().dependencies ?? {}).sort());
});

test("the integrator's programs type-check with strict against the installed declarations, and wrong shapes do not compile", async () => {
  const compiled = await run(join(PROJECT_ROOT, 'node_modules', '.bin', 'tsc'), ['-p', project], { cwd: project }).catch((error: { stdout: string }) => error);
  assert.is(compiled.stdout.trim(), '', `tsc:\n${compiled.stdout}`);
  assert.ok(existsSync(join(project, 'out', 'calculate-all.js')));
});

const COMMONJS_PROGRAM = `
const { createTaxRulesClient } = require('@tax-rules-api/client');
createTaxRulesClient({ baseUrl: process.env.TAX_RULES_API_URL })
  .calculate('au.income-tax.annual', { taxableIncome: { _tag: 'Money', cents: 3000000, currency: 'AUD' } })
  .then((result) => console.log(JSON.stringify({ tag: result.report._tag, liabilityCents: result.report.liability.cents })));
`;

for (const line of lines) {
  const node = 'node' in line ? line.node : undefined;
  (node ? test : test.skip)(`plain node on Node.js ${line.line} runs the installed client against the service`, async () => {
    if (!node) return;
    const { stdout: version } = await run(node, ['--version']);
    assert.ok(version.startsWith(`v${line.line}.`), `${node} is ${version.trim()}`);
    const env = { PATH: process.env.PATH ?? '', TAX_RULES_API_URL: service.url };
    const { stdout } = await run(node, ['out/calculate-all.js'], { cwd: project, env });
    const expected = expectedCalculateAllOutput();
    assert.equal(JSON.parse(stdout), expected);
    // CommonJS code takes the ES module with require(), as Node.js does from 22.12.
    const required = await run(node, ['--input-type=commonjs', '-e', COMMONJS_PROGRAM], { cwd: project, env });
    assert.equal(JSON.parse(required.stdout), expected.annual);
  });
}

test.run();
