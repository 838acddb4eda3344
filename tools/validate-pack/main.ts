/**
 * validate-pack: checks rule packs without starting the service. Run through bin/validate-pack.js,
 * `npm run validate-pack --` or `tsx tools/validate-pack/main.ts`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from './args.ts';
import { checkPacks, isClean } from './check.ts';
import { HELP } from './help.ts';
import { formatJson } from './json.ts';
import { formatReport } from './report.ts';

// Resolved from this file, not the working directory, so the default works from any folder.
const SHIPPED_PACKS = fileURLToPath(new URL('../../rulepacks/', import.meta.url));

/** Runs the tool on argv (without node and script) and returns the exit code. */
function main(argv: readonly string[]): number {
  const parsed = parseArgs(argv);
  if (!parsed.ok) return usageError([parsed.problem]);
  const { options } = parsed;
  if (options.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const outcome = checkPacks(options.paths.length > 0 ? options.paths : [SHIPPED_PACKS]);
  if (!outcome.ok) {
    return usageError([
      ...outcome.missing.map((path) => (existsSync(path) ? `\`${path}\` is not a folder` : `\`${path}\` does not exist`)),
      ...outcome.empty.map((path) => `no pack (a folder with pack.yaml) in \`${path}\``),
    ]);
  }
  const { packs } = outcome;
  process.stdout.write(options.json ? formatJson(packs) : formatReport(packs));
  if (packs.some((pack) => pack.unreadable.length > 0)) return 2;
  return packs.every(isClean) ? 0 : 1;
}

function usageError(problems: readonly string[]): number {
  for (const problem of problems) process.stderr.write(`validate-pack: ${problem}\n`);
  process.stderr.write('Run `validate-pack --help` for usage.\n');
  return 2;
}

// exitCode rather than process.exit(), so piped output is flushed before the process ends.
process.exitCode = main(process.argv.slice(2));
