/** Where something is in a pack: the file (relative to the packs root where possible), 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** The six graph issue kinds the API reports. */
export const GRAPH_ISSUE_KINDS = [
  'duplicate-provider',
  'missing-provider',
  'missing-source',
  'parameter-overlap',
  'parameter-source-mismatch',
  'cycle',
] as const;
export type GraphIssueKind = (typeof GRAPH_ISSUE_KINDS)[number];

/** Every kind of problem a pack can have. */
export type DiagnosticKind =
  | GraphIssueKind
  | 'parse'
  | 'schema'
  | 'expression'
  | 'reference'
  | 'duplicate-id'
  | 'value'
  | 'parameter-gap';

/** One problem found in a pack; collected, never thrown. */
export interface Diagnostic {
  kind: DiagnosticKind;
  message: string;
  location: SourceLocation;
}

/** `file:line:col kind message`, the form every tool prints (for diagnostics and notices alike). */
export function formatDiagnostic(diagnostic: { kind: string; message: string; location: SourceLocation }): string {
  const { file, line, column } = diagnostic.location;
  return `${file}:${line}:${column} ${diagnostic.kind} ${diagnostic.message}`;
}
