import { plural } from '../lib/text.ts';
import type { Section } from './compare.ts';

/** The diff as text: which two versions, each section with changes (sections without are listed as unchanged), a verdict. */
export function formatDiff(oldLabel: string, newLabel: string, sections: readonly Section[], unchangedResults: number): string {
  const lines = [`old: ${oldLabel}`, `new: ${newLabel}`];
  for (const section of sections) {
    if (section.lines.length === 0) continue;
    lines.push('', section.title, ...section.lines.map((line) => `  ${line}`));
  }
  const quiet = sections.filter((section) => section.lines.length === 0).map((section) => section.title);
  if (quiet.length > 0) lines.push('', `No change: ${quiet.join(', ')}`);
  lines.push(`${plural(unchangedResults, 'example case')} ${unchangedResults === 1 ? 'gives' : 'give'} the same figures in both versions`);
  const changes = sections.reduce((sum, section) => sum + section.lines.filter((line) => /^[-+~] /.test(line)).length, 0);
  lines.push('', changes === 0 ? 'NO CHANGE' : `CHANGED: ${plural(changes, 'item')} ${changes === 1 ? 'differs' : 'differ'}`);
  return `${lines.join('\n')}\n`;
}

/** True when any section has a change. */
export function hasChanges(sections: readonly Section[]): boolean {
  return sections.some((section) => section.lines.length > 0);
}
