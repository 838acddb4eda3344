/** Prints each usage problem and the hint to read --help, on stderr; returns exit code 2. */
export function usageError(tool: string, problems: readonly string[]): number {
  for (const problem of problems) process.stderr.write(`${tool}: ${problem}\n`);
  process.stderr.write(`Run \`${tool} --help\` for usage.\n`);
  return 2;
}
