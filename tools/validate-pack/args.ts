/** What a command line asks validate-pack to do. */
export interface Options {
  paths: string[];
  json: boolean;
  help: boolean;
}

/** Either the options, or why the command line cannot be acted on (a usage error, exit code 2). */
export type ParsedArgs = { ok: true; options: Options } | { ok: false; problem: string };

/**
 * Reads the arguments after the script name. Hand-rolled rather than node:util's parseArgs so that
 * an unknown flag gets a one-line message in our words. `--` ends the flags, for paths that start with `-`.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options: Options = { paths: [], json: false, help: false };
  let flagsEnded = false;
  for (const arg of argv) {
    if (flagsEnded || !arg.startsWith('-') || arg === '-') options.paths.push(arg);
    else if (arg === '--') flagsEnded = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else return { ok: false, problem: `unknown option \`${arg}\`` };
  }
  return { ok: true, options };
}
