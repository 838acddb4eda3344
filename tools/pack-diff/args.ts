/** Where the two versions come from: two folders, or one folder at two revisions (the second may be the working tree). */
export type Comparison =
  | { kind: 'folders'; old: string; new: string }
  | { kind: 'revisions'; path: string; old: string; new: string | null };

export type ParsedArgs = { ok: true; help: true } | { ok: true; help: false; comparison: Comparison } | { ok: false; problem: string };

/**
 * `pack-diff OLD NEW`, `pack-diff PACK --rev OLD --rev NEW` or `pack-diff PACK --rev OLD` (against the
 * folder as it is on disk). `--rev=X` works too; `--` ends the flags.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const paths: string[] = [];
  const revisions: string[] = [];
  let flagsEnded = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (flagsEnded || !arg.startsWith('-') || arg === '-') paths.push(arg);
    else if (arg === '--') flagsEnded = true;
    else if (arg === '--help' || arg === '-h') return { ok: true, help: true };
    else if (arg === '--rev' || arg.startsWith('--rev=')) {
      const revision = arg === '--rev' ? argv[++index] : arg.slice('--rev='.length);
      if (!revision) return { ok: false, problem: '`--rev` needs a git revision, e.g. HEAD~1' };
      revisions.push(revision);
    } else return { ok: false, problem: `unknown option \`${arg}\`` };
  }
  if (revisions.length === 0) {
    if (paths.length !== 2) return { ok: false, problem: 'give two pack folders (old, then new), or one pack folder and --rev' };
    return { ok: true, help: false, comparison: { kind: 'folders', old: paths[0]!, new: paths[1]! } };
  }
  if (revisions.length > 2) return { ok: false, problem: 'at most two `--rev`: the old revision, then the new one' };
  if (paths.length !== 1) return { ok: false, problem: 'with `--rev`, give exactly one pack folder' };
  return { ok: true, help: false, comparison: { kind: 'revisions', path: paths[0]!, old: revisions[0]!, new: revisions[1] ?? null } };
}
