/**
 * The most a rule pack may hold. Each bound is far above what a real pack needs and keeps loading a
 * pack, and starting a service on it, to seconds whatever its files say: past a bound the pack is
 * refused with a diagnostic at the place that crosses it, before the work that would cost more.
 */
export const PACK_LIMITS = {
  /** Bytes in one YAML file (a pack file, or serving.yaml). */
  fileBytes: 1024 * 1024,
  /** Bytes in all the YAML files of one pack folder together. */
  packBytes: 4 * 1024 * 1024,
  /** Mappings and lists inside one another in one YAML file (the file's top level is the first). */
  yamlLevels: 250,
  /** Operations inside one another in a rule's formula or expression (`a − b − c` is two: the second subtracts from the first). */
  expressionLevels: 100,
  /** Rows of one value of a bracket table. */
  tableRows: 1000,
} as const;

/** Why a YAML file of this many bytes is refused, if it is. */
export function fileSizeProblem(bytes: number): string | undefined {
  return bytes > PACK_LIMITS.fileBytes ? `the file is ${describeBytes(bytes)}; a rule pack file may be at most ${describeBytes(PACK_LIMITS.fileBytes)}` : undefined;
}

/** A byte count as an analyst reads it: `512 bytes`, `3.2 KB`, `5.1 MB` (powers of 1,024). */
export function describeBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${trimmed(bytes / 1024)} KB`;
  return `${trimmed(bytes / (1024 * 1024))} MB`;
}

function trimmed(value: number): string {
  return value >= 10 ? String(Math.floor(value)) : String(Math.floor(value * 10) / 10);
}
