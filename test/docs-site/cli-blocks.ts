/** The project's command-line tools, as the docs run them: `npx <bin>`, which is `node bin/<bin>.js`. */
export const CLI_BINS = ['validate-pack', 'explain', 'pack-diff', 'tax-rules-mcp'] as const;
export type CliBin = (typeof CLI_BINS)[number];

/** A fenced code block: its info string, its text, and the line of its opening fence (1-based). */
export interface FencedBlock {
  info: string;
  text: string;
  line: number;
}

/**
 * Where a console block's command runs, named after `console` in its info string: by default the
 * project root (test/docs-site/cli-output.test.ts runs those); `new-year-copy`, a copy of the project
 * made by following the new-year guide (test/docs-site/new-year-guide.test.ts runs those).
 */
export const RUN_PLACES = ['', 'new-year-copy'] as const;
export type RunPlace = (typeof RUN_PLACES)[number];

/**
 * A `console` block of the docs that runs one of our tools: the command after `$ `, its arguments
 * as the shell would pass them, the output the docs show beneath it, and where it runs.
 */
export interface DocumentedRun {
  file: string;
  line: number;
  command: string;
  bin: CliBin;
  args: string[];
  output: string;
  place: RunPlace;
}

/**
 * Every fenced code block (backticks or tildes, three or more), as CommonMark reads them: a block ends
 * at a fence of the same character at least as long as its opening one, or at the end of the page.
 * A fence may be indented (inside a list item); that indentation is removed from the block's lines.
 */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)(`{3,}|~{3,})(.*)$/.exec(lines[index]!);
    if (!open || (open[2]![0] === '`' && open[3]!.includes('`'))) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    const start = index;
    for (index++; index < lines.length; index++) {
      const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[index]!);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      const line = lines[index]!;
      body.push(line.slice(Math.min(indent.length, line.length - line.trimStart().length)));
    }
    blocks.push({ info: info.trim(), text: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

/**
 * The `console` blocks of a page whose command is `$ npx <one of our bins> ...`. The command is the
 * first line (continued onto the next while a line ends in a backslash); the rest is the output.
 * A console block that runs `npx` with anything else is an error: it would go unchecked.
 */
export function documentedRuns(file: string, markdown: string): DocumentedRun[] {
  const runs: DocumentedRun[] = [];
  for (const block of fencedBlocks(markdown)) {
    const [info, ...meta] = block.info.split(/\s+/);
    if (info !== 'console') continue;
    const lines = block.text.split('\n');
    if (!lines[0]!.startsWith('$ npx ')) continue;
    let end = 0;
    while (lines[end]!.endsWith('\\') && end + 1 < lines.length) end++;
    const command = lines
      .slice(0, end + 1)
      .join('\n')
      .slice(2);
    const words = shellWords(command);
    const bin = words[1] as CliBin;
    if (!CLI_BINS.includes(bin)) {
      throw new Error(`${file}:${block.line}: \`${words.slice(0, 2).join(' ')}\` is not one of our tools (${CLI_BINS.join(', ')}), so its output cannot be checked`);
    }
    const place = meta.join(' ') as RunPlace;
    if (!RUN_PLACES.includes(place)) throw new Error(`${file}:${block.line}: \`console ${place}\` names no place a test runs console blocks (${RUN_PLACES.filter(Boolean).join(', ')})`);
    runs.push({ file, line: block.line, command, bin, args: words.slice(2), output: lines.slice(end + 1).join('\n'), place });
  }
  return runs;
}

/**
 * Splits a command line into words as a POSIX shell does for the simple commands the docs show:
 * single quotes keep everything, double quotes keep everything but `\` before `"`, `\`, `$` or a
 * backtick, a backslash outside quotes escapes the next character (a backslash-newline joins lines).
 * Anything a shell would expand, redirect or ignore (`$`, a backtick, `|`, `&`, `;`, `<`, `>`, `*`,
 * `?`, parentheses, a `#` comment) is refused outside quotes: the test could not run it as the docs mean it.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) throw new Error(`unclosed single quote in: ${command}`);
      word = (word ?? '') + command.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      word ??= '';
      for (index++; ; index++) {
        if (index >= command.length) throw new Error(`unclosed double quote in: ${command}`);
        const inner = command[index]!;
        if (inner === '"') break;
        if (inner === '$' || inner === '`') throw new Error(`the shell would expand \`${inner}\` in: ${command}`);
        const next = command[index + 1];
        if (inner === '\\' && next === '\n') index++;
        else if (inner === '\\' && next !== undefined && '"\\$`'.includes(next)) word += command[++index];
        else word += inner;
      }
    } else if (char === '\\') {
      index++;
      if (command[index] !== '\n') word = (word ?? '') + (command[index] ?? '');
    } else if (/[$`|&;<>*?()]/.test(char) || (char === '#' && word === undefined)) {
      throw new Error(`\`${char}\` needs a shell, which the docs test does not use: ${command}`);
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Output as compared: trailing whitespace of each line and trailing blank lines left out. */
export function normalizeOutput(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

/**
 * A `console` block of the docs that starts the service: `$ npm start`, possibly after settings
 * (`$ PORT=abc npm start`), and the lines the docs show it printing.
 */
export interface DocumentedStart {
  file: string;
  line: number;
  command: string;
  env: Record<string, string>;
  output: string;
}

/** The `console` blocks of a page whose command is `$ [NAME=value ...] npm start`. */
export function documentedStarts(file: string, markdown: string): DocumentedStart[] {
  const starts: DocumentedStart[] = [];
  for (const block of fencedBlocks(markdown)) {
    if (block.info.split(/\s+/)[0] !== 'console') continue;
    const [first = '', ...output] = block.text.split('\n');
    if (!first.startsWith('$ ') || !/(?:^|\s)npm start$/.test(first)) continue;
    const command = first.slice(2);
    const words = shellWords(command);
    const settings = words.slice(0, -2);
    const env: Record<string, string> = {};
    for (const setting of settings) {
      const assignment = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(setting);
      if (assignment === null) throw new Error(`${file}:${block.line}: \`${setting}\` in \`${command}\` is not a setting (NAME=value), so the start cannot be checked`);
      env[assignment[1]!] = assignment[2]!;
    }
    starts.push({ file, line: block.line, command, env, output: output.join('\n') });
  }
  return starts;
}

/**
 * The lines the docs show that the service did not print, in the docs' order: each must match a
 * printed line after the one matched before it. A JSON log line matches one with the same fields
 * in the same order, except the time and process id, which differ on every run, and the port of
 * a `url`, which is the port the docs name (`PORT`, else the default 4000) where the test had to
 * listen on a free one.
 */
export function missingLines(documented: string, printed: string, documentedPort: string): string[] {
  const printedLines = printed.split('\n').map((line) => comparable(line, documentedPort));
  const missing: string[] = [];
  let from = 0;
  for (const line of normalizeOutput(documented).split('\n')) {
    const found = printedLines.indexOf(comparable(line, undefined), from);
    if (found === -1) missing.push(line);
    else from = found + 1;
  }
  return missing;
}

function comparable(line: string, port: string | undefined): string {
  if (!line.trimStart().startsWith('{')) return line.trimEnd();
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.trimEnd();
  }
  const { time: _time, pid: _pid, ...rest } = record;
  if (port !== undefined && typeof rest['url'] === 'string') rest['url'] = rest['url'].replace(/^(\w+:\/\/[^/:]+):\d+/, `$1:${port}`);
  return JSON.stringify(rest);
}
