/** One reason the documentation cannot be built, located as precisely as known. */
export interface DocsProblem {
  /** Path of the offending file relative to the project root (or a generated page's source). */
  readonly file: string;
  /** 1-based line in that file, when the problem has one. */
  readonly line?: number;
  readonly message: string;
}

/** Renders a problem the way editors and terminals link to it: `file:line: message`. */
export function formatProblem(problem: DocsProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return `${where}: ${problem.message}`;
}

/**
 * Thrown by `buildDocsSite` with every problem of a build phase at once, so authors can fix them
 * in one pass instead of one per restart.
 */
export class DocsBuildError extends Error {
  readonly problems: readonly DocsProblem[];

  constructor(problems: readonly DocsProblem[]) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`Documentation build failed with ${count}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
    this.name = 'DocsBuildError';
    this.problems = problems;
  }
}
