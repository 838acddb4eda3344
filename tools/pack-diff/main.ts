/**
 * pack-diff: what changed between two versions of a rule pack, and what it does to the examples'
 * figures. Run through bin/pack-diff.js, `npm run pack-diff --` or `tsx tools/pack-diff/main.ts`.
 */
import { usageError } from '../lib/usage.ts';
import { parseArgs } from './args.ts';
import { definitionSections } from './definitions.ts';
import { HELP } from './help.ts';
import { formatDiff, hasChanges } from './report.ts';
import { resultSection } from './results.ts';
import { loadSides } from './sides.ts';

function main(argv: readonly string[]): number {
  const parsed = parseArgs(argv);
  if (!parsed.ok) return usageError('pack-diff', [parsed.problem]);
  if (parsed.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const sides = loadSides(parsed.comparison);
  if (!sides.ok) return usageError('pack-diff', sides.problems);
  const results = resultSection(sides.old.report, sides.new.report);
  const sections = [...definitionSections(sides.old.report, sides.new.report), results];
  process.stdout.write(formatDiff(sides.old.label, sides.new.label, sections, results.unchanged));
  return hasChanges(sections) ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
