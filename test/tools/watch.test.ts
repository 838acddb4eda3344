import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PROJECT_ROOT } from '../helpers/packs.ts';

// validate-pack --watch, spawned on a temporary copy of a fixture pack: each edit is reported as a
// change, then SIGINT stops it. Every wait is bounded, and the process is killed whatever happens.

const WAIT_MS = 10_000;

test('--watch reports a new diagnostic (with its did-you-mean), its fix, and an example that starts failing; SIGINT exits 0', async () => {
  const root = mkdtempSync(join(tmpdir(), 'watch-'));
  const pack = join(root, 'fixture-pay', '1.0.0');
  cpSync(join(PROJECT_ROOT, 'test/fixtures/tool-packs/diff/old/fixture-pay/1.0.0'), pack, { recursive: true });
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin/validate-pack.js'), '--watch', root], { cwd: root });
  let stdout = '';
  let waiter: (() => void) | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    waiter?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  // Resolves once `text` has been printed after output position `from`.
  const seen = (text: string, from: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${JSON.stringify(text)}; output so far:\n${stdout}`)), WAIT_MS);
      waiter = () => {
        if (stdout.indexOf(text, from) === -1) return;
        clearTimeout(timer);
        waiter = undefined;
        resolve();
      };
      waiter();
    });
  const edit = (file: string, from: string, to: string) => {
    const path = join(pack, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  };
  try {
    await seen('for changes (Ctrl-C to stop)', 0);
    assert.ok(stdout.startsWith('pack fixture-pay/1.0.0'), stdout);
    assert.ok(stdout.includes('now: 0 diagnostics, 0 failing examples'), stdout);

    let mark = stdout.length;
    edit('rules/levy.yaml', '{ "*": [{ var: grossPay }', '{ "*": [{ var: grossPy }');
    await seen('now: 1 diagnostic', mark);
    const typo = stdout.slice(mark);
    assert.match(typo, /re-checked after changes to \S*rules\/levy\.yaml/);
    assert.match(typo, /\+ new: \S*rules\/levy\.yaml:13:\d+ expression rule `levy`: `grossPy` is not a required fact of this rule; did you mean `grossPay`\?/);
    assert.ok(typo.includes('examples of fixture-pay/1.0.0 not run until its diagnostics are fixed'), typo);

    mark = stdout.length;
    edit('rules/levy.yaml', 'grossPy', 'grossPay');
    await seen('now: 0 diagnostics', mark);
    assert.match(stdout.slice(mark), /- fixed: \S*rules\/levy\.yaml:13:\d+ expression rule `levy`: `grossPy`/);
    assert.not.match(stdout.slice(mark), /now fails|now passes/, 'the example passed before the typo and passes after it: no change to report');

    // Saved the way many editors and `sed -i` save: a new file renamed over the old one, twice.
    const replace = (file: string, from: string, to: string) => {
      const path = join(pack, file);
      writeFileSync(`${path}.tmp`, readFileSync(path, 'utf8').replace(from, to));
      renameSync(`${path}.tmp`, path);
    };
    mark = stdout.length;
    replace('rules/levy.yaml', '{ "*": [{ var: grossPay }', '{ "*": [{ var: grossPy }');
    await seen('now: 1 diagnostic', mark);
    mark = stdout.length;
    replace('rules/levy.yaml', 'grossPy', 'grossPay');
    await seen('now: 0 diagnostics', mark);

    mark = stdout.length;
    edit('examples/worked.yaml', 'netPay: 111111', 'netPay: 111112');
    await seen('now: 0 diagnostics, 1 failing example', mark);
    assert.match(stdout.slice(mark), /\+ now fails: \S*examples\/worked\.yaml:2:5 example `one payment` \(fixture\.pay\.net\) does not give the expected figures\n {4}netPay: expected 111112 \(\$1,111\.12\), actual 111111 \(\$1,111\.11\)/);

    child.kill('SIGINT');
    assert.is(await exited, 0);
    assert.ok(stdout.endsWith('stopped watching\n'), stdout);
  } finally {
    child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
