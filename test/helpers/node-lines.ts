import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from './packs.ts';

// The Node.js lines the project supports are the majors its package.json `engines` names. Their
// binaries live in a cache outside the repository, where scripts/fetch-node-lines.sh puts them.

/** The supported Node.js majors, in the order `engines` names them, e.g. ['22', '24', '26']. */
export function supportedNodeLines(): string[] {
  const { engines } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  return [...engines.node.matchAll(/\^(\d+)\./g)].map((match) => match[1]!);
}

/** Where scripts/fetch-node-lines.sh keeps each line's binary. */
export const NODE_LINES_CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tax-rules-api', 'node-lines');

/** A line's `node`, or why there is none here. */
export function nodeLineBinary(line: string): { node: string } | { missing: string } {
  const node = join(NODE_LINES_CACHE, line, 'package', 'bin', 'node');
  return existsSync(node) ? { node } : { missing: `no binary at ${node} (scripts/fetch-node-lines.sh ${line} fetches it)` };
}
