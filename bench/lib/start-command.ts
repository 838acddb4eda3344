import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './packs.ts';

/** How `npm start` runs the compiled service: node's flags and the environment defaults it sets. */
export interface StartCommand {
  /** The flags before `dist/server.js` on the `exec node …` line. */
  nodeFlags: string[];
  /** Variables the script sets when they are not already set (`export NAME="${NAME:-value}"`). */
  env: Record<string, string>;
}

/**
 * Reads scripts/start.sh, so that a bench runs the service the way `npm start` does even when it
 * runs `node` itself (to time it, or to run another build's `dist/server.js`). Throws when the
 * script has no `exec node … dist/server.js` line: a bench must not quietly measure something else.
 */
export function readStartCommand(script = join(PROJECT_ROOT, 'scripts/start.sh')): StartCommand {
  const text = readFileSync(script, 'utf8');
  const exec = /^exec node (.*?) ?dist\/server\.js$/m.exec(text);
  if (!exec) throw new Error(`${script} has no line "exec node … dist/server.js"`);
  const env: Record<string, string> = {};
  for (const [, name, value] of text.matchAll(/^export ([A-Z_]+)="\$\{\1:-([^}"]*)\}"$/gm)) env[name!] = process.env[name!] ?? value!;
  return { nodeFlags: exec[1]!.split(' ').filter(Boolean), env };
}

/** The start command without one of its node flags, for an A/B of that flag; throws when the command has no such flag. */
export function withoutNodeFlag(command: StartCommand, flag: string): StartCommand {
  if (!command.nodeFlags.includes(flag)) throw new Error(`the start command has no flag ${flag} (it has: ${command.nodeFlags.join(' ')})`);
  return { ...command, nodeFlags: command.nodeFlags.filter((nodeFlag) => nodeFlag !== flag) };
}

/** The start command with one more node flag, for an A/B of a flag the script does not pass yet. */
export function withNodeFlag(command: StartCommand, flag: string): StartCommand {
  if (!flag.startsWith('--')) throw new Error(`a node flag starts with --: ${flag}`);
  return { ...command, nodeFlags: [...command.nodeFlags, flag] };
}
