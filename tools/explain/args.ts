/** What a command line asks explain to do. */
export interface Options {
  calculatorId?: string;
  facts?: string;
  context?: string;
  /** Another context to compare the calculation with (the old side; `context` is the new one). */
  against?: string;
  /** Pack folders, in the order given; empty for the project's rulepacks/. */
  packs: string[];
  json: boolean;
  help: boolean;
}

export type ParsedArgs = { ok: true; options: Options } | { ok: false; problem: string };

const VALUED = { '--facts': 'facts', '--context': 'context', '--against': 'against' } as const;

/** Reads the arguments after the script name; `--name value` and `--name=value` both work. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options: Options = { packs: [], json: false, help: false };
  const positional: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--json') options.json = true;
    else if (flag === '--packs') {
      const value = inline ?? argv[++index];
      if (value === undefined) return { ok: false, problem: '`--packs` needs a value' };
      options.packs.push(value);
    } else if (Object.hasOwn(VALUED, flag)) {
      const value = inline ?? argv[++index];
      if (value === undefined) return { ok: false, problem: `\`${flag}\` needs a value` };
      options[VALUED[flag as keyof typeof VALUED]] = value;
    } else if (arg.startsWith('-') && arg !== '-') return { ok: false, problem: `unknown option \`${arg}\`` };
    else positional.push(arg);
  }
  if (options.help) return { ok: true, options };
  if (positional.length !== 1) return { ok: false, problem: positional.length === 0 ? 'name the calculator to run, e.g. `explain au.pay.take-home --facts facts.json`' : `one calculator at a time; got ${positional.join(', ')}` };
  if (options.facts === undefined) return { ok: false, problem: '`--facts` is required: a JSON file, `-` for standard input, or the JSON itself' };
  options.calculatorId = positional[0]!;
  return { ok: true, options };
}
