/**
 * to-formula: rewrites rules written as json-logic `expression`s as `formula` text, and lays out
 * formulas as the engine renders them. Run through
 * `npm run to-formula -- <pack folder>...` or `tsx tools/to-formula/main.ts`.
 */
import { displayPath } from '../lib/paths.ts';
import { usageError } from '../lib/usage.ts';
import { convertPacks } from './convert.ts';

const HELP = `Usage: to-formula [--check] <pack folder>...

Rewrites every rule of the packs at or under the folders that is written as a json-logic
\`expression\` as a \`formula\`, and every formula not in the engine's layout (ASCII symbols such
as * and <=, other line breaks) in it. A rule is rewritten only when its formula reads back as
exactly the same expression; packs with diagnostics are left alone.

  --check   change nothing; list the rules still written as json-logic or not laid out, and exit 1
            if there are any
  --help    show this help

Exit codes: 0 done (or nothing to do), 1 something was left unconverted, 2 usage error.
`;

function main(argv: readonly string[]): number {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  const check = argv.includes('--check');
  const unknown = argv.filter((arg) => arg.startsWith('-') && arg !== '--check');
  const paths = argv.filter((arg) => !arg.startsWith('-'));
  if (unknown.length > 0) return usageError('to-formula', unknown.map((arg) => `unknown option \`${arg}\``));
  if (paths.length === 0) return usageError('to-formula', ['name at least one pack folder, e.g. `to-formula rulepacks`']);
  const { conversions, problems } = convertPacks(paths, { write: !check });
  for (const conversion of conversions) {
    const note = conversion.droppedComments ? ' (its comments were dropped: move them above `formula:`)' : '';
    const what = conversion.change === 'converted' ? (check ? 'still json-logic' : 'now a formula') : check ? 'formula not laid out' : 'formula laid out';
    process.stdout.write(`${displayPath(conversion.file)}: ${what}${note}\n`);
  }
  for (const problem of problems) process.stderr.write(`${problem}\n`);
  if (conversions.length === 0 && problems.length === 0) process.stdout.write('every rule is a formula, laid out\n');
  return problems.length > 0 || (check && conversions.length > 0) ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
