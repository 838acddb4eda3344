import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary folder for a bench's files (server logs, captured answers, callgrind counts), removed
 * when the bench ends well and kept, with a line saying where, when it fails. The HTTP bench leaves
 * its servers' request log lines there (bench/README.md, "Figures behind the code").
 */
export function benchWorkDir(prefix: string): string {
  const work = mkdtempSync(join(tmpdir(), prefix));
  process.on('exit', (code) => {
    if (code === 0) rmSync(work, { recursive: true, force: true });
    else process.stderr.write(`bench files kept for a look: ${work}\n`);
  });
  return work;
}
