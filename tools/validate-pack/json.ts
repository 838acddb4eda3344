import { isClean, type PackOutcome } from './check.ts';

/** The `--json` document: one entry per pack, and whether everything is clean. */
export function formatJson(packs: readonly PackOutcome[]): string {
  const document = {
    packs: packs.map((pack) => ({
      id: pack.id,
      version: pack.version,
      dir: pack.dir,
      counts: pack.counts,
      unreadable: pack.unreadable,
      diagnostics: pack.diagnostics.map(({ kind, message, location }) => ({ kind, message, file: location.file, line: location.line, column: location.column })),
      notices: pack.notices.map(({ kind, message, location }) => ({ kind, message, file: location.file, line: location.line, column: location.column })),
      examplesRun: pack.examplesRun,
      examples: pack.examples,
    })),
    ok: packs.every(isClean),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
