// Lane: services (npm run test:fast leaves this file out).
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT, startDefaultService, type DefaultService } from '../../tools/openapi/default-service.ts';
import { fencedBlocks } from './cli-blocks.ts';
import { containsDocumented } from './executable-examples.ts';

// Every `ts` block of the docs that imports the client is a whole program: each is type-checked with
// strict, then run against the service as plain `npm start` serves it, and the JSON it prints must
// contain what the `json` block right after it shows. The programs are written inside the project
// (under .tmp/, ignored by git) so that they import the client from the root as an integrator would.

const CONTENT = fileURLToPath(new URL('../../docs-site/content/', import.meta.url));
const WORK_DIR = join(PROJECT_ROOT, '.tmp', 'docs-client-examples');
const bin = (name: string) => join(PROJECT_ROOT, 'node_modules', '.bin', name);
const run = promisify(execFile);

interface ClientExample {
  source: string;
  program: string;
  shown: unknown;
  file: string;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : []));
}

const examples: ClientExample[] = markdownFiles(CONTENT).flatMap((page) => {
  const blocks = fencedBlocks(readFileSync(page, 'utf8'));
  return blocks.flatMap((block, index) => {
    if (block.info.split(/\s+/)[0] !== 'ts' || !block.text.includes("from '@tax-rules-api/client'")) return [];
    const next = blocks[index + 1];
    const source = `${relative(PROJECT_ROOT, page)}:${block.line}`;
    if (next?.info !== 'json') throw new Error(`${source}: a client example needs the JSON it prints in a json block right after it`);
    const file = join(WORK_DIR, `${relative(CONTENT, page).replace(/[/.]/g, '-')}-${block.line}.ts`);
    return [{ source, program: block.text, shown: JSON.parse(next.text), file }];
  });
});

let service: DefaultService;
// Started together once the service listens; each test waits for its own.
const printed = new Map<ClientExample, Promise<string>>();
test.before(async () => {
  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(WORK_DIR, { recursive: true });
  for (const example of examples) writeFileSync(example.file, example.program);
  // A strict project of its own, as an integrator's would be: the repository's looser settings do not apply.
  const tsconfig = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['*.ts'] };
  writeFileSync(join(WORK_DIR, 'tsconfig.json'), JSON.stringify(tsconfig));
  // Shedding off: whether a busy test machine's event loop lags is not what the docs show. Pay runs
  // on, for the guide's pay run; they only add a route.
  service = await startDefaultService({ MAX_EVENT_LOOP_DELAY_MS: '0', API_EXTENSIONS: 'pay-runs' });
  for (const example of examples) {
    const running = run(bin('tsx'), [example.file], { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? '', TAX_RULES_API_URL: service.url } }).then(({ stdout }) => stdout);
    running.catch(() => undefined); // reported by the example's own test
    printed.set(example, running);
  }
});
test.after(async () => {
  await service?.stop();
  rmSync(WORK_DIR, { recursive: true, force: true });
});

test('the docs have client examples: install, first calculation, errors, retry and limits, types', () => {
  assert.ok(examples.length >= 5, `${examples.length} examples`);
});

test('every client example type-checks with strict', async () => {
  const checked = await run(bin('tsc'), ['-p', WORK_DIR], { cwd: PROJECT_ROOT }).catch((error: { stdout: string }) => error);
  assert.is(checked.stdout.trim(), '', `tsc:\n${checked.stdout}`);
});

for (const example of examples) {
  test(`${example.source} prints what the docs show`, async () => {
    const stdout = await printed.get(example)!;
    const problem = containsDocumented(JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null'), example.shown);
    assert.not.ok(problem, `${example.source}: ${problem}\nprinted: ${stdout}`);
  });
}

test.run();
