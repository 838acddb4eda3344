/** What validate-pack is asked to do: check once (the default), keep checking, draw graphs, or measure coverage. */
export type Mode = 'check' | 'watch' | 'graph' | 'coverage';

/** The graph notations `--graph` can print. */
export const GRAPH_FORMATS = ['mermaid', 'dot'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** What a command line asks validate-pack to do. */
export interface Options {
  paths: string[];
  mode: Mode;
  json: boolean;
  help: boolean;
  format: GraphFormat;
  requireFull: boolean;
}

/** Either the options, or why the command line cannot be acted on (a usage error, exit code 2). */
export type ParsedArgs = { ok: true; options: Options } | { ok: false; problem: string };

const MODE_FLAGS: Readonly<Record<string, Mode>> = { '--watch': 'watch', '--graph': 'graph', '--coverage': 'coverage' };

/**
 * Reads the arguments after the script name. Hand-rolled rather than node:util's parseArgs so that
 * an unknown flag gets a one-line message in our words. `--` ends the flags, for paths that start with `-`.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options: Options = { paths: [], mode: 'check', json: false, help: false, format: 'mermaid', requireFull: false };
  let flagsEnded = false;
  let format: string | undefined;
  const modes: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (flagsEnded || !arg.startsWith('-') || arg === '-') options.paths.push(arg);
    else if (arg === '--') flagsEnded = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--require-full') options.requireFull = true;
    else if (Object.hasOwn(MODE_FLAGS, arg)) {
      modes.push(arg);
      options.mode = MODE_FLAGS[arg]!;
    } else if (arg === '--format' || arg.startsWith('--format=')) {
      format = arg === '--format' ? argv[++index] : arg.slice('--format='.length);
      if (format === undefined) return { ok: false, problem: '`--format` needs a value: mermaid or dot' };
    } else return { ok: false, problem: `unknown option \`${arg}\`` };
  }
  if (options.help) return { ok: true, options };
  if (modes.length > 1) return { ok: false, problem: `choose one of ${modes.map((flag) => `\`${flag}\``).join(', ')}` };
  if (format !== undefined) {
    if (options.mode !== 'graph') return { ok: false, problem: '`--format` only applies to `--graph`' };
    if (!(GRAPH_FORMATS as readonly string[]).includes(format)) return { ok: false, problem: `unknown graph format \`${format}\`; use mermaid or dot` };
    options.format = format as GraphFormat;
  }
  if (options.requireFull && options.mode !== 'coverage') return { ok: false, problem: '`--require-full` only applies to `--coverage`' };
  if (options.json && (options.mode === 'watch' || options.mode === 'graph')) return { ok: false, problem: `\`--json\` does not apply to \`--${options.mode}\`` };
  return { ok: true, options };
}
